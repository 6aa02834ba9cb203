import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * Noise control (issue 12): deliveries that are recorded but never sent, each saying what held it back.
 * - New delivery states: `silenced` (by a silence), `muted` (by a route's time interval), `suppressed` (by a
 *   throttle), `grouped` (collected into a digest). They are final like `dead`: the engine claims only `pending`.
 * - `held_by`: the silence id, interval, throttle or digest that held the delivery.
 * - `throttle_key`: the throttle and its rendered key, on every delivery a throttle decided about;
 *   `suppressed_count`: on a delivery a throttle let through, how many it had suppressed since the previous one
 *   (`{{ suppressed.count }}`). `throttle_keys`: per key, what its next decision needs (throttle-ledger.ts).
 * - `silences`: matchers as JSON (compiled by the daemon against the rules in force), the time they are in
 *   force, who made them and why; `on_expiry` and `released_at` drive `on_expiry: deliver_unresolved`.
 * - `source_status`: for `expect_events_within`, when each watched source last sent a verified event.
 * SQLite cannot change a CHECK constraint, so `deliveries` is rebuilt (same columns and ids; the AUTOINCREMENT
 * counter is carried over, so an id is never reused).
 */
export const heldDeliveriesMigration: SqliteMigration = {
  version: 4,
  name: 'held-deliveries',
  rebuildsTables: true,
  sql: `
    CREATE TABLE deliveries_new (
      id                INTEGER PRIMARY KEY AUTOINCREMENT,
      event_id          TEXT    NOT NULL REFERENCES events (id),
      target            TEXT    NOT NULL,
      state             TEXT    NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'delivered', 'dead', 'silenced', 'muted', 'suppressed', 'grouped')),
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
      UNIQUE (event_id, target)
    ) STRICT;
    INSERT INTO deliveries_new (id, event_id, target, state, attempts, next_attempt_at, last_error, created_at,
        updated_at, claim_token, retry_from, schedule_attempts, replay_generation)
      SELECT id, event_id, target, state, attempts, next_attempt_at, last_error, created_at, updated_at,
        claim_token, retry_from, schedule_attempts, replay_generation FROM deliveries;
    DELETE FROM sqlite_sequence WHERE name = 'deliveries_new';
    INSERT INTO sqlite_sequence (name, seq) SELECT 'deliveries_new', seq FROM sqlite_sequence WHERE name = 'deliveries';
    DROP TABLE deliveries;
    ALTER TABLE deliveries_new RENAME TO deliveries;
    CREATE INDEX deliveries_due ON deliveries (target, next_attempt_at) WHERE state = 'pending';
    CREATE INDEX deliveries_claimed ON deliveries (id) WHERE claim_token IS NOT NULL;
    CREATE INDEX deliveries_by_state ON deliveries (state, created_at);
    -- on_expiry: deliver_unresolved finds a silence's deliveries without scanning the others.
    CREATE INDEX deliveries_held_by ON deliveries (held_by) WHERE held_by IS NOT NULL;

    -- Throttle keys as the daemon's in-memory ledger last wrote them (create-sqlite-throttles.ts): the times of
    -- the deliveries let through that can still count (JSON, oldest first) and how many were suppressed since
    -- the last one, complete up to delivery as_of; the deliveries after throttle_checkpoint are read on start.
    CREATE TABLE throttle_keys (
      key         TEXT    NOT NULL PRIMARY KEY,
      sent_at     TEXT    NOT NULL,
      suppressed  INTEGER NOT NULL,
      as_of       INTEGER NOT NULL,
      updated_at  INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE throttle_checkpoint (
      only   INTEGER NOT NULL PRIMARY KEY CHECK (only = 1),
      as_of  INTEGER NOT NULL
    ) STRICT;
    INSERT INTO throttle_checkpoint (only, as_of) SELECT 1, coalesce(max(id), 0) FROM deliveries;

    CREATE TABLE silences (
      id          TEXT    NOT NULL PRIMARY KEY,
      matchers    TEXT    NOT NULL,
      starts_at   INTEGER NOT NULL,
      ends_at     INTEGER NOT NULL,
      comment     TEXT    NOT NULL,
      created_by  TEXT    NOT NULL,
      on_expiry   TEXT    NOT NULL DEFAULT 'drop' CHECK (on_expiry IN ('drop', 'deliver_unresolved')),
      created_at  INTEGER NOT NULL,
      updated_at  INTEGER NOT NULL,
      -- Set once the silence's held deliveries were released after it ended (deliver_unresolved only).
      released_at INTEGER
    ) STRICT;
    CREATE INDEX silences_by_end ON silences (ends_at);

    -- Sources that must keep sending (expect_events_within): when each last sent a verified event, as the
    -- instances report it every few seconds, how many requests failed verification since, and whether
    -- switchyard.source_silent was raised (and when), so that one instance raises it, once.
    CREATE TABLE source_status (
      source           TEXT    NOT NULL PRIMARY KEY,
      last_event_at    INTEGER NOT NULL,
      rejected         INTEGER NOT NULL DEFAULT 0,
      silent_raised_at INTEGER
    ) STRICT;
    -- Digests (group:): events with the same group key collected into one delivery. One open digest per
    -- target and key; it is sent (a switchyard.digest event and its delivery) once due, by one instance.
    CREATE TABLE digests (
      id         TEXT    NOT NULL PRIMARY KEY,
      route      TEXT    NOT NULL,
      target     TEXT    NOT NULL,
      group_key  TEXT    NOT NULL,
      state      TEXT    NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'sent')),
      max_events INTEGER NOT NULL,
      count      INTEGER NOT NULL DEFAULT 0,
      first_at   INTEGER NOT NULL,
      due_at     INTEGER NOT NULL,
      sent_at    INTEGER,
      event_id   TEXT
    ) STRICT;
    CREATE UNIQUE INDEX digests_open ON digests (target, group_key) WHERE state = 'open';
    CREATE INDEX digests_due ON digests (due_at) WHERE state = 'open';
    CREATE INDEX digests_sent ON digests (target, group_key, sent_at) WHERE state = 'sent';
  `,
};
