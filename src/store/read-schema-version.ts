import { existsSync } from 'node:fs';
import type { StoreConfig } from '../config/config.js';
import { checkPostgresSchemaVersion } from './postgres/check-postgres-schema-version.js';
import { createPostgresPool } from './postgres/create-postgres-pool.js';
import { postgresMigrations } from './postgres/migrations/postgres-migrations.js';
import { toPostgresJournalError } from './postgres/to-postgres-journal-error.js';
import { checkSqliteSchemaVersion } from './sqlite/check-sqlite-schema-version.js';
import { sqliteMigrations } from './sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from './sqlite/open-sqlite-database.js';

/**
 * The journal's schema version and the latest this Switchyard knows, read without changing anything (a SQLite
 * file that does not exist yet is version 0 and is not created). Rejects like the store: `journal_unavailable`,
 * `journal_schema_too_new`.
 */
export async function readSchemaVersion(config: StoreConfig): Promise<{ version: number; latest: number }> {
  if (config.kind === 'sqlite') {
    const latest = sqliteMigrations.length;
    if (!existsSync(config.path)) return { version: 0, latest };
    const db = openSqliteDatabase(config.path, config.busyTimeoutMs);
    try {
      return { version: checkSqliteSchemaVersion(db, latest), latest };
    } finally {
      db.close();
    }
  }
  const latest = postgresMigrations.length;
  const pool = createPostgresPool({
    url: config.url,
    ...(config.schema === null ? {} : { schema: config.schema }),
    pool: { max: 1 },
  });
  try {
    return { version: await checkPostgresSchemaVersion(pool, latest), latest };
  } catch (error) {
    throw toPostgresJournalError(error);
  } finally {
    await pool.end();
  }
}
