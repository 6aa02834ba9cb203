import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockSqliteJournal } from '../../src/store/sqlite/lock-sqlite-journal.js';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { useTempDirs } from '../helpers/temp-dir.js';

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
    // The refused attempt took nothing and changed nothing: the record still names the holder.
    expect(JSON.parse(readFileSync(`${journal}.lock.holder`, 'utf8'))).toEqual(holder);
    expect(existsSync(journal)).toBe(false);

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
