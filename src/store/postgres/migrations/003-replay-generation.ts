import type { PostgresMigration } from '../postgres-migration.js';

/** As SQLite's migration 3 (src/store/sqlite/migrations/003-replay-generation.ts), which says why. */
export const replayGenerationMigration: PostgresMigration = {
  version: 3,
  name: 'replay-generation',
  sql: `
    ALTER TABLE deliveries ADD COLUMN schedule_attempts integer NOT NULL DEFAULT 0;
    ALTER TABLE deliveries ADD COLUMN replay_generation integer NOT NULL DEFAULT 0;
    UPDATE deliveries SET schedule_attempts = attempts,
      attempts = (SELECT count(*) FROM attempts WHERE attempts.delivery_id = deliveries.id);
  `,
};
