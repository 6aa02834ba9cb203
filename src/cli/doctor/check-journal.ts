import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { checkSqliteSchemaVersion } from '../../store/sqlite/check-sqlite-schema-version.js';
import { sqliteMigrations } from '../../store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../store/sqlite/open-sqlite-database.js';
import { toJournalError } from '../../store/sqlite/to-journal-error.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { DoctorCheck } from './doctor-check.js';

/** A running daemon may hold the write lock for a group commit; this is long enough to get it in between. */
const LOCK_WAIT_MS = 2_000;

/**
 * Opens the journal, reads its schema version and takes the write lock once (`BEGIN IMMEDIATE`, then
 * `ROLLBACK`): that fails on a read-only file or folder, a full lock or a broken file, and writes nothing.
 * A journal that does not exist yet is not created; its folder must be writable for the daemon to create it.
 */
export function checkJournal(path: string): DoctorCheck {
  const item = 'journal';
  if (!existsSync(path)) {
    let folder = dirname(path);
    while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
    try {
      accessSync(folder, constants.W_OK);
    } catch {
      return { verdict: 'FAIL', item, detail: `${path} does not exist and ${folder} is not writable` };
    }
    return { verdict: 'WARN', item, detail: `${path} does not exist yet: the daemon creates it at start` };
  }
  let db: Database.Database | undefined;
  try {
    db = openSqliteDatabase(path, LOCK_WAIT_MS);
    const latest = sqliteMigrations.length;
    const version = checkSqliteSchemaVersion(db, latest);
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    if (version < latest) {
      return {
        verdict: 'WARN',
        item,
        detail: `${path}: writable, schema version ${version} of ${latest}: the daemon migrates it at start`,
      };
    }
    return { verdict: 'OK', item, detail: `${path}: writable, schema version ${version} (current)` };
  } catch (error) {
    const mapped = toJournalError(error);
    const reason = mapped instanceof SwitchyardError || mapped instanceof Error ? mapped.message : String(mapped);
    return { verdict: 'FAIL', item, detail: `${path}: ${reason}` };
  } finally {
    db?.close();
  }
}
