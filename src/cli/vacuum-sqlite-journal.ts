import type { SqliteStoreConfig } from '../config/config.js';
import { enableIncrementalVacuum } from '../store/sqlite/enable-incremental-vacuum.js';
import { openSqliteDatabase } from '../store/sqlite/open-sqlite-database.js';
import { SwitchyardError } from '../switchyard-error.js';

/**
 * `switchyard prune --vacuum`: the one-time conversion that start-up skips for a journal over 64 MiB
 * (src/store/sqlite/enable-incremental-vacuum.ts), then the file's free pages go back to the file system.
 */
export function vacuumSqliteJournal(config: SqliteStoreConfig): string {
  const db = openSqliteDatabase(config.path, Math.max(config.busyTimeoutMs, 5_000));
  try {
    const before = Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
    const outcome = enableIncrementalVacuum(db, Number.POSITIVE_INFINITY);
    if (outcome === 'failed') {
      throw new SwitchyardError('journal_unavailable', 'VACUUM failed: is the daemon still running on this journal?');
    }
    if (outcome === 'already') db.pragma('incremental_vacuum');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const after = Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
    const done = outcome === 'converted' ? 'converted to auto_vacuum=INCREMENTAL' : 'already gives space back';
    return `vacuum: ${done}; ${before} -> ${after} bytes`;
  } finally {
    db.close();
  }
}
