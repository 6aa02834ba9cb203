import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockJournalInode } from '../../src/store/sqlite/lock-journal-inode.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();

describe('lockJournalInode', () => {
  it('creates a missing journal to lock it, refuses a second lock on the file, and lets it go on release', () => {
    const journal = path.join(tempDir(), 'journal.db');
    const lock = lockJournalInode(journal);
    expect(lock).toMatchObject({ held: true, links: 1 });
    expect(existsSync(journal)).toBe(true);
    expect(lockJournalInode(journal)).toEqual({ held: false, reason: 'taken' });
    if (lock.held) lock.release();
    const again = lockJournalInode(journal);
    expect(again.held).toBe(true);
    if (again.held) again.release();
  });

  it('says the lock cannot be had here when the flock program is missing', () => {
    const journal = path.join(tempDir(), 'journal.db');
    expect(lockJournalInode(journal, 'switchyard-no-such-flock')).toEqual({ held: false, reason: 'unsupported' });
  });
});
