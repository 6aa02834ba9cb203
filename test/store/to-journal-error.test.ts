import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toJournalError } from '../../src/store/sqlite/to-journal-error.js';
import { SwitchyardError } from '../../src/switchyard-error.js';

/** The error `work` throws: real SqliteErrors from real SQLite, not hand-made ones. */
function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('toJournalError', () => {
  let dir: string;
  let path: string;
  const open: Database.Database[] = [];
  const connect = (options?: Database.Options) => {
    const db = new Database(path, options);
    open.push(db);
    return db;
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-journal-error-'));
    path = join(dir, 'journal.db');
    connect().exec("PRAGMA journal_mode = WAL; CREATE TABLE t (secret TEXT UNIQUE); INSERT INTO t VALUES ('s3cr3t')");
  });
  afterEach(async () => {
    for (const db of open.splice(0)) db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    [
      'disk full',
      'SQLITE_FULL',
      () => {
        const db = connect();
        db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
        db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000));
      },
    ],
    [
      'locked',
      'SQLITE_BUSY',
      () => {
        connect().exec('BEGIN IMMEDIATE');
        connect({ timeout: 0 }).exec('BEGIN IMMEDIATE');
      },
    ],
    ['read-only', 'SQLITE_READONLY', () => connect({ readonly: true }).exec("INSERT INTO t VALUES ('y')")],
  ])('maps %s (%s) to journal_unavailable, 503, without statement values', (_name, code, work) => {
    const original = thrownBy(work);
    expect(original).toMatchObject({ code });

    const mapped = toJournalError(original);

    expect(mapped).toBeInstanceOf(SwitchyardError);
    expect(mapped).toMatchObject({ code: 'journal_unavailable', status: 503, cause: original });
    expect((mapped as Error).message).toContain(code);
    expect((mapped as Error).message).not.toContain('s3cr3t');
  });

  it('maps extended codes by their family', () => {
    const error = new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_FSYNC');
    expect(toJournalError(error)).toMatchObject({ code: 'journal_unavailable' });
  });

  it('leaves errors that are about the write itself, and non-SQLite errors, unchanged', () => {
    const constraint = thrownBy(() => connect().exec("INSERT INTO t VALUES ('s3cr3t')"));
    expect(constraint).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(toJournalError(constraint)).toBe(constraint);
    const syntax = thrownBy(() => connect().exec('SELEKT 1'));
    expect(toJournalError(syntax)).toBe(syntax);
    const plain = new Error('SQLITE_FULL in a message is not a code');
    expect(toJournalError(plain)).toBe(plain);
    // A code that merely starts like a family is not in it.
    expect(toJournalError(new Database.SqliteError('x', 'SQLITE_FULLNESS'))).not.toBeInstanceOf(SwitchyardError);
  });
});
