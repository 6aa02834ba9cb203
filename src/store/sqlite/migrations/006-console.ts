import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * The console (issue 13).
 * - `events.title`: the event's title (`data.title`, else a top-level `title`), cut to 200 characters, written at
 *   ingest, so the console's free-text search reads one short column instead of parsing every body. Events
 *   received before this migration keep a null title (no backfill: a journal of millions would be rewritten
 *   inside the migration's transaction); they are not found by `q` and show no title in listings.
 * - `deliveries_by_update`: the console's live updates (GET /changes) read the deliveries changed after a
 *   cursor, in (updated_at, id) order; one more index entry moved per state change.
 */
export const consoleMigration: SqliteMigration = {
  version: 6,
  name: 'console',
  sql: `
    ALTER TABLE events ADD COLUMN title TEXT;
    CREATE INDEX deliveries_by_update ON deliveries (updated_at, id);
  `,
};
