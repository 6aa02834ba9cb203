import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * The deliveries a throttle let through, by key (as PostgreSQL's `deliveries_throttle_sent`): retention keeps a
 * suppressed delivery until a later one of its key was let through, the one that reports it in its count
 * (../../unfinished-delivery-sql.ts), and asks this index once per suppressed delivery it judges. Only the
 * deliveries let through are in it, at most `max` per key and window, so a storm's suppressed deliveries cost
 * ingest nothing more.
 */
export const throttleLetThroughMigration: SqliteMigration = {
  version: 11,
  name: 'throttle-let-through',
  sql: `
    CREATE INDEX deliveries_throttle_sent ON deliveries (throttle_key, created_at)
      WHERE throttle_key IS NOT NULL AND state <> 'suppressed';
  `,
};
