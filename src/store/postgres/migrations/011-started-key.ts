import type { PostgresMigration } from '../postgres-migration.js';

/**
 * As SQLite's migration 13 (src/store/sqlite/migrations/013-started-key.ts), which says why. `IF NOT EXISTS`:
 * the tests that rebuild an older journal replay the migrations after theirs.
 */
export const startedKeyMigration: PostgresMigration = {
  version: 11,
  name: 'started-key',
  sql: `ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS started_key boolean NOT NULL DEFAULT false;`,
};
