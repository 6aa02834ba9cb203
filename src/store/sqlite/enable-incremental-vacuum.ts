import type Database from 'better-sqlite3';

/** Below this, converting an existing journal at start-up takes well under a second or two. */
export const AUTO_CONVERT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Makes the journal give pruned space back to the file system: `incremental_vacuum` needs
 * `auto_vacuum = INCREMENTAL`, which an existing database only takes with a one-time VACUUM (a rewrite of the
 * whole file, holding the write lock meanwhile, with room for a second copy). So it is done here only while the
 * journal is at most `maxBytes` (a new journal always is); a larger one keeps `auto_vacuum = NONE`, where pruned
 * pages are reused by later writes but the file does not shrink, until `switchyard prune --vacuum` converts it.
 * https://www.sqlite.org/pragma.html#pragma_auto_vacuum
 */
export function enableIncrementalVacuum(
  db: Database.Database,
  maxBytes: number,
): 'already' | 'converted' | 'too-large' | 'failed' {
  if (db.pragma('auto_vacuum', { simple: true }) === 2) return 'already';
  const pages = Number(db.pragma('page_count', { simple: true }));
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  if (pages * pageSize > maxBytes) return 'too-large';
  try {
    db.pragma('auto_vacuum = INCREMENTAL');
    db.exec('VACUUM');
    return 'converted';
  } catch {
    // Another connection holds the journal (a CLI reading it, say): not worth failing a start for; next time.
    return 'failed';
  }
}
