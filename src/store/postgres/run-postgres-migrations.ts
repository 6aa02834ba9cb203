import type pg from 'pg';
import { checkPostgresSchemaVersion } from './check-postgres-schema-version.js';
import type { PostgresMigration } from './postgres-migration.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

/**
 * Brings the journal's schema up to the latest of `migrations`; a no-op when it is already there, so every
 * instance runs it at start. The whole run is one transaction under a transaction-level advisory lock keyed
 * on the schema: instances starting at once wait for each other and each migration is applied exactly once,
 * and a failure leaves the journal at the version it had (PostgreSQL's DDL is transactional).
 * https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
 * A journal whose schema is newer than the code is refused.
 */
export async function runPostgresMigrations(
  pool: pg.Pool,
  migrations: readonly PostgresMigration[],
  options: { schema: string | undefined; nowMs: number },
): Promise<void> {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `PostgreSQL migrations must be numbered 1, 2, 3, ...; found ${migration.version} at position ${index + 1}`,
      );
    }
  });
  await withPostgresTransaction(pool, async (client) => {
    // Migrations may rewrite large tables: the per-statement limit is for the daemon's own queries.
    await client.query('SET LOCAL statement_timeout = 0');
    // The two-key form: a key space of its own, apart from ingest's one-key dedupe locks.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('switchyard.migrate'), hashtext($1))", [
      options.schema ?? '',
    ]);
    // A migration that locks a table (migration 8's LOCK TABLE deliveries) would otherwise wait for as long as
    // any other session holds it (an operator's open transaction, a pg_dump), and every instance's reads and
    // writes queue behind that wait. Failing instead is journal_unavailable (55P03): the daemon starts not
    // ready and tries again; `switchyard migrate` says so. Set after the advisory lock, which may rightly wait
    // for another instance's migration.
    await client.query("SET LOCAL lock_timeout = '5s'");
    // Checked before creating anything, so that migrate() on a current journal needs no DDL privileges.
    const version = await checkPostgresSchemaVersion(client, migrations.length);
    if (version === migrations.length) return;
    if (options.schema !== undefined) {
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [options.schema]);
      // The name was checked to need no quoting (createPostgresPool).
      if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${options.schema}`);
    }
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer NOT NULL PRIMARY KEY,
      name       text    NOT NULL,
      applied_at bigint  NOT NULL
    )`);
    const applied = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(applied.rows.map((row) => row.version));
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        options.nowMs,
      ]);
    }
  });
}
