import type pg from 'pg';
import { SwitchyardError } from '../../switchyard-error.js';

/**
 * The journal's schema version (0 when never migrated, or when the schema itself does not exist yet). Throws
 * `journal_schema_too_new` when it is newer than `latestKnown`: an older Switchyard would misread or damage
 * tables it does not know.
 */
export async function checkPostgresSchemaVersion(db: pg.Pool | pg.PoolClient, latestKnown: number): Promise<number> {
  // to_regclass resolves through search_path and answers NULL instead of failing for a missing table.
  const present = await db.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (present.rows[0]?.present !== true) return 0;
  const result = await db.query<{ version: number }>(
    'SELECT coalesce(max(version), 0) AS version FROM schema_migrations',
  );
  const version = result.rows[0]?.version ?? 0;
  if (version > latestKnown) {
    throw new SwitchyardError(
      'journal_schema_too_new',
      `the event journal's schema is at version ${version}, but this Switchyard knows versions up to ${latestKnown}: ` +
        'it was written by a newer Switchyard; upgrade, or point the store at another database or schema',
    );
  }
  return version;
}
