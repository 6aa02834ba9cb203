import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { lockSqliteJournal } from '../../src/store/sqlite/lock-sqlite-journal.js';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { makeIngestItem } from './make-ingest-item.js';

const tempDir = useTempDirs();
const holder = { pid: 4242, host: 'soc-1', startedAt: Date.UTC(2026, 10, 23, 8, 0, 0) };

function refusal(journal: string): SwitchyardError {
  try {
    lockSqliteJournal(journal, { pid: 1, host: 'other', startedAt: 0 }).release();
  } catch (error) {
    if (error instanceof SwitchyardError) return error;
    throw error;
  }
  throw new Error('the lock was granted');
}

describe('lockSqliteJournal', () => {
  it('locks one file for one journal however it is reached: through a symbolic link to it too', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'journal.db'), '');
    symlinkSync(path.join(dir, 'journal.db'), path.join(dir, 'link.db'));
    const lock = lockSqliteJournal(path.join(dir, 'journal.db'), holder);
    try {
      expect(refusal(path.join(dir, 'link.db')).code).toBe('journal_locked');
    } finally {
      lock.release();
    }
  });

  it('locks the journal file itself: a hard link to it in another folder, or the name it was renamed to, is refused', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'a'));
    const journal = path.join(dir, 'a', 'journal.db');
    const lock = lockSqliteJournal(journal, holder);
    linkSync(journal, path.join(dir, 'b.db'));
    const refused = refusal(path.join(dir, 'b.db'));
    expect(refused.code).toBe('journal_locked');
    expect(refused.message).toBe(
      `the journal ${path.join(dir, 'b.db')} is in use by another switchyard daemon that opened it by another name ` +
        '(a hard link to the file, or a name it had before a rename): stop it first, or give this one its own ' +
        'store.sqlite.path; the read-only and replay commands work beside it',
    );
    // Refused, it gave up the lock beside its own name too: nothing is left held once the first one releases.
    rmSync(path.join(dir, 'b.db'));
    renameSync(journal, path.join(dir, 'renamed.db'));
    expect(refusal(path.join(dir, 'renamed.db')).code).toBe('journal_locked');
    lock.release();
    expect(lock.warnings).toEqual([]);
    lockSqliteJournal(path.join(dir, 'renamed.db'), holder).release();
  });

  it('keeps the file lock while SQLite connections open, write and close the journal, and warns of a second name', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'journal.db');
    const lock = lockSqliteJournal(journal, holder);
    // A CLI command beside the daemon: it writes through WAL as before, and its closing the file (which drops a
    // POSIX lock the process holds on it) leaves the daemon's lock in place.
    const store = createSqliteStore({ path: journal });
    await store.migrate();
    await store.ingest([makeIngestItem()]);
    expect(await store.counts()).toMatchObject({ events: 1 });
    await store.close();
    linkSync(journal, path.join(dir, 'second-name.db'));
    expect(refusal(path.join(dir, 'second-name.db')).code).toBe('journal_locked');
    lock.release();
    const again = lockSqliteJournal(journal, holder);
    expect(again.warnings).toEqual([
      'the journal file has 2 hard links: open it by this name only, from the daemon and the CLI alike, since ' +
        'SQLite keeps the write-ahead log beside the name it is given',
    ]);
    again.release();
  });

  it('refuses a second holder, naming the journal and the first holder, until the first releases', () => {
    const journal = path.join(tempDir(), 'data', 'journal.db');
    const lock = lockSqliteJournal(journal, holder);
    const refused = refusal(journal);
    expect(refused.code).toBe('journal_locked');
    expect(refused.where).toBe(`${journal}.lock`);
    expect(refused.message).toBe(
      `the journal ${journal} is in use by another switchyard daemon (pid 4242 on host soc-1, ` +
        'started 2026-11-23T08:00:00.000Z): stop it first, or give this one its own store.sqlite.path; ' +
        'the read-only and replay commands work beside it',
    );
    // The refused attempt took nothing and changed nothing: the record still names the holder, and the journal
    // is the empty file the holder's lock made.
    expect(JSON.parse(readFileSync(`${journal}.lock.holder`, 'utf8'))).toEqual(holder);
    expect(readFileSync(journal)).toHaveLength(0);

    lock.release();
    lock.release();
    expect(existsSync(`${journal}.lock.holder`)).toBe(false);
    const next = lockSqliteJournal(journal, { ...holder, pid: 4343 });
    expect(refusal(journal).message).toContain('(pid 4343 on host soc-1,');
    next.release();
  });

  it('says so when the holder is not recorded, or its record is unreadable', () => {
    const journal = path.join(tempDir(), 'journal.db');
    const lock = lockSqliteJournal(journal, holder);
    writeFileSync(`${journal}.lock.holder`, '{"pid": 4');
    expect(refusal(journal).message).toContain('(its process record is unreadable)');
    rmSync(`${journal}.lock.holder`);
    expect(refusal(journal).message).toContain('(its process is not recorded)');
    lock.release();
    const again = lockSqliteJournal(journal, { ...holder, pid: 4343 });
    lock.release(); // a second release of the old lock leaves the new holder's record alone
    expect(refusal(journal).message).toContain('(pid 4343 on host soc-1,');
    writeFileSync(`${journal}.lock.holder`, '{"pid": 7, "host": "soc-2"}');
    expect(refusal(journal).message).toContain('(pid 7 on host soc-2, started at an unknown time)');
    again.release();
    writeFileSync(`${journal}.lock.holder`, '{}');
    const third = lockSqliteJournal(journal, holder);
    expect(refusal(journal).message).toContain('(pid 4242 on host soc-1,');
    third.release();
  });

  it('fails as journal_unavailable, taking nothing, when the lock file cannot be made', () => {
    const file = path.join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    const journal = path.join(file, 'journal.db');
    expect(() => lockSqliteJournal(journal, holder)).toThrow(
      expect.objectContaining({ code: 'journal_unavailable', where: `${journal}.lock` }),
    );
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});
