import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * Events and their deliveries. Times are INTEGER ms since the epoch. The delivery engine (next issue) claims
 * due pending deliveries through `deliveries_due`, counts `attempts`, moves `next_attempt_at` and records
 * `last_error`; a claim lease, if it needs one, is an added column in a later migration.
 */
export const initialMigration: SqliteMigration = {
  version: 1,
  name: 'initial',
  sql: `
    CREATE TABLE events (
      id             TEXT    NOT NULL PRIMARY KEY,
      source         TEXT    NOT NULL,
      kind           TEXT    NOT NULL,
      severity       TEXT,
      occurred_at    TEXT    NOT NULL,
      received_at    INTEGER NOT NULL,
      body           BLOB    NOT NULL,
      body_sha256    TEXT    NOT NULL CHECK (length(body_sha256) = 64),
      rules_version  TEXT    NOT NULL,
      matched_routes TEXT    NOT NULL CHECK (json_valid(matched_routes) AND json_type(matched_routes) = 'array')
    ) STRICT;

    -- Serves the dedupe lookup: same source, same body hash, received within the window.
    CREATE INDEX events_dedupe ON events (source, body_sha256, received_at);

    -- No ON DELETE CASCADE: pruning old events must not silently drop deliveries that are still pending.
    CREATE TABLE deliveries (
      id              TEXT    NOT NULL PRIMARY KEY,
      event_id        TEXT    NOT NULL REFERENCES events (id),
      target          TEXT    NOT NULL,
      state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
      attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at INTEGER NOT NULL,
      last_error      TEXT,
      created_at      INTEGER NOT NULL,
      updated_at      INTEGER NOT NULL,
      UNIQUE (event_id, target)
    ) STRICT;

    -- Serves the delivery engine's "due" query: state = 'pending' AND next_attempt_at <= now, oldest first.
    CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
  `,
};
