import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * What the delivery engine needs on top of migration 1:
 * - `claim_token`: set while one attempt is in flight. A claim also moves `next_attempt_at` to the end of a
 *   lease, so a delivery whose process died becomes due again by itself; the SQLite daemon also releases
 *   every claim at start, since it is the journal's only engine.
 * - `retry_from`: the instant the retry budget (`max_age`) counts from: the event's receipt, or the last replay.
 * - `attempts`: one row per attempt, kept with dead letters so their history can be read and replayed.
 * The due index now leads with the target, because the engine claims per target (its rate limit, concurrency
 * and circuit decide how many it may take).
 */
export const deliveryAttemptsMigration: SqliteMigration = {
  version: 2,
  name: 'delivery-attempts',
  sql: `
    ALTER TABLE deliveries ADD COLUMN claim_token TEXT;
    ALTER TABLE deliveries ADD COLUMN retry_from INTEGER NOT NULL DEFAULT 0;
    UPDATE deliveries SET retry_from = created_at;

    DROP INDEX deliveries_due;
    CREATE INDEX deliveries_due ON deliveries (target, next_attempt_at) WHERE state = 'pending';
    -- Start-up releases claims a killed process left: find them without reading every pending row.
    CREATE INDEX deliveries_claimed ON deliveries (id) WHERE claim_token IS NOT NULL;
    -- Serves 'switchyard deliveries --state dead' and friends without scanning delivered rows.
    CREATE INDEX deliveries_by_state ON deliveries (state, created_at);

    CREATE TABLE attempts (
      delivery_id INTEGER NOT NULL REFERENCES deliveries (id),
      number      INTEGER NOT NULL,
      started_at  INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL,
      outcome     TEXT    NOT NULL CHECK (outcome IN ('delivered', 'retry', 'dead')),
      status_code INTEGER,
      detail      TEXT,
      PRIMARY KEY (delivery_id, number)
    ) STRICT, WITHOUT ROWID;
  `,
};
