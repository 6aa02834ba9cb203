import type { PostgresMigration } from '../postgres-migration.js';

/**
 * As SQLite's migration 11 (src/store/sqlite/migrations/011-started-key.ts), which says why. `IF NOT EXISTS`:
 * the tests that rebuild an older journal replay the migrations after theirs.
 */
export const startedKeyMigration: PostgresMigration = {
  version: 10,
  name: 'started-key',
  sql: `ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS started_key boolean NOT NULL DEFAULT false;`,
};
