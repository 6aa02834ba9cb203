import type Database from 'better-sqlite3';
import { SwitchyardError } from '../../switchyard-error.js';

/**
 * The journal's schema version (0 for a journal never migrated). Throws `journal_schema_too_new` when it is
 * newer than `latestKnown`: an older Switchyard would misread or damage tables it does not know.
 */
export function checkSqliteSchemaVersion(db: Database.Database, latestKnown: number): number {
  const hasTable = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .pluck()
    .get();
  const version =
    hasTable === undefined
      ? 0
      : (db.prepare('SELECT coalesce(max(version), 0) FROM schema_migrations').pluck().get() as number);
  if (version > latestKnown) {
    throw new SwitchyardError(
      'journal_schema_too_new',
      `the event journal's schema is at version ${version}, but this Switchyard knows versions up to ${latestKnown}: ` +
        'it was written by a newer Switchyard; upgrade, or point the store at another file',
    );
  }
  return version;
}
