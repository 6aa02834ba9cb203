import type { PostgresMigration } from '../postgres-migration.js';

/**
 * A claim takes the earliest due deliveries of a target `ORDER BY next_attempt_at, id LIMIT n`
 * (lease-postgres-due.ts). The index of migration 1 ends at `next_attempt_at`, so PostgreSQL read every due
 * delivery of the target and sorted them to find the first n: under a storm, with a backlog of 70,000, each
 * claim took 11-22 ms of the server's CPU while holding the target's pacing row, deliveries fell further
 * behind, and the backlog grew (the pipeline benchmark: 10% delivered during the load, the last 151 s after).
 * With `id` in the index the scan stops after n rows (0.1 ms). SQLite's index needs no change: every SQLite
 * index ends with the rowid, which `deliveries.id` is.
 * The name stays, so plans and docs that name `deliveries_due` still hold. The table is locked first, for
 * reads too, until the migration commits (0.7 s for a million pending deliveries on the benchmark machine),
 * once, at the first start of this version: building the index first and taking the drop's lock after it
 * would be an upgrade from the build's lock, which deadlocks with an older instance's transaction that read
 * `deliveries` before the build and writes it after.
 */
export const dueOrderMigration: PostgresMigration = {
  version: 8,
  name: 'due-order',
  sql: `
    LOCK TABLE deliveries IN ACCESS EXCLUSIVE MODE;
    DROP INDEX deliveries_due;
    CREATE INDEX deliveries_due ON deliveries (target, next_attempt_at, id) WHERE state = 'pending';
  `,
};
