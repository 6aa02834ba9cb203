import type Database from 'better-sqlite3';
import { checkSqliteSchemaVersion } from './check-sqlite-schema-version.js';
import type { SqliteMigration } from './sqlite-migration.js';

/**
 * Brings the journal's schema up to the latest of `migrations`; a no-op when it is already there, so it runs
 * on every start. Each migration runs in its own IMMEDIATE transaction together with its `schema_migrations`
 * row, so a failure leaves the journal at the previous version and two processes starting at once apply each
 * migration exactly once. A journal whose schema is newer than the code is refused. Returns how many it applied.
 */
export function runSqliteMigrations(
  db: Database.Database,
  migrations: readonly SqliteMigration[],
  nowMs: number,
): number {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `SQLite migrations must be numbered 1, 2, 3, ...; found ${migration.version} at position ${index + 1}`,
      );
    }
  });
  const latestKnown = migrations.length;
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER NOT NULL PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');

  const apply = db.transaction((migration: SqliteMigration): number => {
    // Re-checked under the write lock: another process may have migrated since we looked.
    checkSqliteSchemaVersion(db, latestKnown);
    if (isApplied.get(migration.version) !== undefined) return 0;
    db.exec(migration.sql);
    if (migration.rebuildsTables === true && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
      throw new Error(`migration ${migration.version} (${migration.name}) would break a foreign key`);
    }
    record.run(migration.version, migration.name, nowMs);
    return 1;
  });

  checkSqliteSchemaVersion(db, latestKnown);
  let applied = 0;
  for (const migration of migrations) {
    if (isApplied.get(migration.version) !== undefined) continue;
    // A pragma that cannot change inside a transaction, so it is set around it.
    const keysWereOn = migration.rebuildsTables === true && db.pragma('foreign_keys', { simple: true }) === 1;
    if (keysWereOn) db.pragma('foreign_keys = OFF');
    try {
      applied += apply.immediate(migration);
    } finally {
      if (keysWereOn) db.pragma('foreign_keys = ON');
    }
  }
  return applied;
}
