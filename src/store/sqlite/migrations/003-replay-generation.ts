import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * Replays no longer reset `attempts`, so the count shown always equals the recorded attempts (a replay used to
 * show 0 beside a history of several). What the retry policy counts moves to its own column:
 * - `schedule_attempts`: attempts counted against `max_attempts` since the last replay (a 429 is not counted);
 * - `replay_generation`: how many times the delivery was replayed after it had been delivered; the
 *   idempotency key changes with it, so a receiver that deduplicates takes the resend as a new request.
 * Existing rows: what `attempts` counted becomes `schedule_attempts`, and `attempts` is recounted from history.
 */
export const replayGenerationMigration: SqliteMigration = {
  version: 3,
  name: 'replay-generation',
  sql: `
    ALTER TABLE deliveries ADD COLUMN schedule_attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE deliveries ADD COLUMN replay_generation INTEGER NOT NULL DEFAULT 0;
    UPDATE deliveries SET schedule_attempts = attempts,
      attempts = (SELECT count(*) FROM attempts WHERE attempts.delivery_id = deliveries.id);
  `,
};
