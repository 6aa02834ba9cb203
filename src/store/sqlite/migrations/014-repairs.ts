import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * Repair of lifecycle deliveries (docs/delivery.md#repairing-a-key):
 * - A new delivery state, `skipped`: a delivery that will not be sent and no longer holds its key's line (a
 *   resolve with nothing to resolve, or a dead one an operator skipped); final at once, like `delivered`. A
 *   skip decided by the engine is also an attempt outcome. SQLite cannot change a CHECK constraint, so
 *   `deliveries` and `attempts` are rebuilt (same columns and ids; the AUTOINCREMENT counter is carried over).
 * - `repairs`: who changed what by hand (a skip, references set or cleared), when and why: the audit trail of
 *   those actions.
 */
export const repairsMigration: SqliteMigration = {
  version: 14,
  name: 'repairs',
  rebuildsTables: true,
  sql: `
    CREATE TABLE deliveries_new (
      id                INTEGER PRIMARY KEY AUTOINCREMENT,
      event_id          TEXT    NOT NULL REFERENCES events (id),
      target            TEXT    NOT NULL,
      state             TEXT    NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'delivered', 'dead', 'skipped', 'silenced', 'muted', 'suppressed', 'grouped')),
      attempts          INTEGER NOT NULL DEFAULT 0,
      next_attempt_at   INTEGER NOT NULL,
      last_error        TEXT,
      created_at        INTEGER NOT NULL,
      updated_at        INTEGER NOT NULL,
      claim_token       TEXT,
      retry_from        INTEGER NOT NULL DEFAULT 0,
      schedule_attempts INTEGER NOT NULL DEFAULT 0,
      replay_generation INTEGER NOT NULL DEFAULT 0,
      held_by           TEXT,
      throttle_key      TEXT,
      suppressed_count  INTEGER NOT NULL DEFAULT 0,
      correlation_key   TEXT,
      started_key       INTEGER NOT NULL DEFAULT 0,
      UNIQUE (event_id, target)
    ) STRICT;
    INSERT INTO deliveries_new (id, event_id, target, state, attempts, next_attempt_at, last_error, created_at,
        updated_at, claim_token, retry_from, schedule_attempts, replay_generation, held_by, throttle_key,
        suppressed_count, correlation_key, started_key)
      SELECT id, event_id, target, state, attempts, next_attempt_at, last_error, created_at, updated_at,
        claim_token, retry_from, schedule_attempts, replay_generation, held_by, throttle_key, suppressed_count,
        correlation_key, started_key FROM deliveries;
    DELETE FROM sqlite_sequence WHERE name = 'deliveries_new';
    INSERT INTO sqlite_sequence (name, seq) SELECT 'deliveries_new', seq FROM sqlite_sequence WHERE name = 'deliveries';
    DROP TABLE deliveries;
    ALTER TABLE deliveries_new RENAME TO deliveries;
    CREATE INDEX deliveries_due ON deliveries (target, next_attempt_at) WHERE state = 'pending';
    CREATE INDEX deliveries_claimed ON deliveries (id) WHERE claim_token IS NOT NULL;
    CREATE INDEX deliveries_by_state ON deliveries (state, created_at);
    CREATE INDEX deliveries_key_open ON deliveries (target, correlation_key, id)
      WHERE correlation_key IS NOT NULL AND state IN ('pending', 'dead');
    CREATE INDEX deliveries_key_claimed ON deliveries (target, correlation_key)
      WHERE correlation_key IS NOT NULL AND claim_token IS NOT NULL;
    CREATE INDEX deliveries_by_update ON deliveries (updated_at, id);
    CREATE INDEX deliveries_held_by ON deliveries (held_by) WHERE held_by IS NOT NULL AND state <> 'grouped';
    CREATE INDEX deliveries_grouped ON deliveries (id, held_by) WHERE state = 'grouped';
    CREATE INDEX deliveries_throttle_sent ON deliveries (throttle_key, created_at)
      WHERE throttle_key IS NOT NULL AND state <> 'suppressed';

    CREATE TABLE attempts_new (
      delivery_id INTEGER NOT NULL REFERENCES deliveries (id),
      number      INTEGER NOT NULL,
      started_at  INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL,
      outcome     TEXT    NOT NULL CHECK (outcome IN ('delivered', 'retry', 'dead', 'skipped')),
      status_code INTEGER,
      detail      TEXT,
      PRIMARY KEY (delivery_id, number)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO attempts_new SELECT * FROM attempts;
    DROP TABLE attempts;
    ALTER TABLE attempts_new RENAME TO attempts;

    CREATE TABLE repairs (
      id          INTEGER PRIMARY KEY AUTOINCREMENT,
      at          INTEGER NOT NULL,
      actor       TEXT    NOT NULL,
      action      TEXT    NOT NULL CHECK (action IN ('skip', 'references-set', 'references-clear')),
      target      TEXT    NOT NULL,
      key         TEXT,
      delivery_id INTEGER,
      reason      TEXT    NOT NULL,
      detail      TEXT
    ) STRICT;
    CREATE INDEX repairs_by_key ON repairs (target, key, id);
  `,
};
