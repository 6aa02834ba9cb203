import type { PostgresMigration } from '../postgres-migration.js';

/** As SQLite's migration 6 (src/store/sqlite/migrations/006-console.ts), which says why. */
export const consoleMigration: PostgresMigration = {
  version: 6,
  name: 'console',
  sql: `
    ALTER TABLE events ADD COLUMN title text;
    CREATE INDEX deliveries_by_update ON deliveries (updated_at, id);
  `,
};
