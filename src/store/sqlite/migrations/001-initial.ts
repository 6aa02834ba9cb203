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
      -- The 32 digest bytes, not 64 hex characters: half the key size in events_dedupe, the widest index
      -- written per event (ingest cost, issue 2 Performance). The store converts to and from hex.
      body_sha256    BLOB    NOT NULL CHECK (length(body_sha256) = 32),
      rules_version  TEXT    NOT NULL,
      -- JSON array of route names; written only by the store (JSON.stringify), so not re-validated here:
      -- json_valid() on every insert cost CPU on the ingest path.
      matched_routes TEXT    NOT NULL
    ) STRICT;

    -- Serves the dedupe lookup: same source, same body hash, received within the window.
    CREATE INDEX events_dedupe ON events (source, body_sha256, received_at);

    -- No ON DELETE CASCADE: pruning old events must not silently drop deliveries that are still pending.
    -- id is the rowid (exposed as 'dlv_<id>'): a TEXT primary key is a second index written per delivery.
    -- AUTOINCREMENT so that an id is never reused after pruning, since ids appear in logs.
    -- https://www.sqlite.org/rowidtable.html https://www.sqlite.org/autoinc.html
    CREATE TABLE deliveries (
      id              INTEGER PRIMARY KEY AUTOINCREMENT,
      event_id        TEXT    NOT NULL REFERENCES events (id),
      target          TEXT    NOT NULL,
      state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
      attempts        INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      last_error      TEXT,
      created_at      INTEGER NOT NULL,
      updated_at      INTEGER NOT NULL,
      UNIQUE (event_id, target)
    ) STRICT;

    -- Serves the delivery engine's "due" query: state = 'pending' AND next_attempt_at <= now, oldest first.
    -- Partial, so delivered and dead rows (most of the table, over time) leave it and it stays small.
    -- https://www.sqlite.org/partialindex.html
    CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
  `,
};
