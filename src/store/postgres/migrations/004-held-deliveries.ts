import type { PostgresMigration } from '../postgres-migration.js';

/** As SQLite's migration 4 (src/store/sqlite/migrations/004-held-deliveries.ts), which says why. */
export const heldDeliveriesMigration: PostgresMigration = {
  version: 4,
  name: 'held-deliveries',
  sql: `
    ALTER TABLE deliveries DROP CONSTRAINT deliveries_state_check;
    ALTER TABLE deliveries ADD CONSTRAINT deliveries_state_check
      CHECK (state IN ('pending', 'delivered', 'dead', 'silenced', 'muted', 'suppressed', 'grouped'));
    ALTER TABLE deliveries ADD COLUMN held_by text;
    ALTER TABLE deliveries ADD COLUMN throttle_key text;
    ALTER TABLE deliveries ADD COLUMN suppressed_count integer NOT NULL DEFAULT 0;
    CREATE INDEX deliveries_held_by ON deliveries (held_by) WHERE held_by IS NOT NULL;
    -- Split by state, so a throttle's decision reads only the deliveries it let through (at most max in the
    -- window), however many a storm had it suppress.
    -- With the state, so the decision reads the index alone (the partial condition is re-checked per row).
    CREATE INDEX deliveries_throttle_sent ON deliveries (throttle_key, created_at, state)
      WHERE throttle_key IS NOT NULL AND state <> 'suppressed';
    CREATE INDEX deliveries_throttle_held ON deliveries (throttle_key, created_at) WHERE state = 'suppressed';

    CREATE TABLE silences (
      id          text COLLATE "C" NOT NULL PRIMARY KEY,
      matchers    jsonb  NOT NULL,
      starts_at   bigint NOT NULL,
      ends_at     bigint NOT NULL,
      comment     text   NOT NULL,
      created_by  text   NOT NULL,
      on_expiry   text   NOT NULL DEFAULT 'drop' CHECK (on_expiry IN ('drop', 'deliver_unresolved')),
      created_at  bigint NOT NULL,
      updated_at  bigint NOT NULL,
      released_at bigint
    );
    CREATE INDEX silences_by_end ON silences (ends_at);

    CREATE TABLE source_status (
      source           text COLLATE "C" NOT NULL PRIMARY KEY,
      last_event_at    bigint  NOT NULL,
      rejected         integer NOT NULL DEFAULT 0,
      silent_raised_at bigint
    );
    CREATE TABLE digests (
      id         text COLLATE "C" NOT NULL PRIMARY KEY,
      route      text    NOT NULL,
      target     text COLLATE "C" NOT NULL,
      group_key  text COLLATE "C" NOT NULL,
      state      text    NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'sent')),
      max_events integer NOT NULL,
      count      integer NOT NULL DEFAULT 0,
      first_at   bigint  NOT NULL,
      due_at     bigint  NOT NULL,
      sent_at    bigint,
      event_id   text
    );
    CREATE UNIQUE INDEX digests_open ON digests (target, group_key) WHERE state = 'open';
    CREATE INDEX digests_due ON digests (due_at) WHERE state = 'open';
    CREATE INDEX digests_sent ON digests (target, group_key, sent_at) WHERE state = 'sent';
  `,
};
