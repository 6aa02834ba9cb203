import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SwitchyardError } from '../../switchyard-error.js';
import { toJournalError } from './to-journal-error.js';

/**
 * Opens (creating if needed, with its folder) the journal file with the settings durability depends on.
 * Separate from the store so that tests can check the settings on the very connection the store would use.
 */
export function openSqliteDatabase(path: string, busyTimeoutMs: number): Database.Database {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new SwitchyardError('journal_unavailable', 'cannot create the folder of the event journal', {
      status: 503,
      where: path,
      cause: error,
    });
  }
  let db: Database.Database | undefined;
  try {
    // `timeout` is SQLite's busy timeout: how long a write waits for another connection's lock before
    // failing with SQLITE_BUSY. better-sqlite3 is synchronous, so the wait blocks the event loop: keep it short
    // and answer 503 rather than stall every request.
    db = new Database(path, { timeout: busyTimeoutMs });
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') {
      throw new SwitchyardError('journal_unsupported', `the event journal cannot use WAL mode (got ${String(mode)})`, {
        where: path,
      });
    }
    // In WAL mode, synchronous = NORMAL may lose the last commits on power loss; FULL syncs the WAL on every
    // commit, and an answered 200 must survive. https://www.sqlite.org/pragma.html#pragma_synchronous
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db?.close();
    throw toJournalError(error, path);
  }
}
