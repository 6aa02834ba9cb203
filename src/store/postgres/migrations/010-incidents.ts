import type { PostgresMigration } from '../postgres-migration.js';

/**
 * As SQLite's `incidents` migration (src/store/sqlite/migrations/), which says why. `IF NOT EXISTS`: the
 * tests that rebuild an older journal replay the migrations after theirs.
 */
export const incidentsMigration: PostgresMigration = {
  version: 10,
  name: 'incidents',
  sql: `
    CREATE TABLE IF NOT EXISTS incidents (
      source           text COLLATE "C" NOT NULL,
      key              text COLLATE "C" NOT NULL,
      state            text   NOT NULL CHECK (state IN ('open', 'resolved', 'reopened')),
      title            text,
      severity_highest text,
      severity_current text,
      severity_rank    integer NOT NULL,
      host             text,
      agent            text,
      first_event_id   text COLLATE "C" NOT NULL,
      first_at         bigint NOT NULL,
      last_event_id    text COLLATE "C" NOT NULL,
      last_at          bigint NOT NULL,
      events           bigint NOT NULL,
      resolved_at      bigint,
      reopened         integer NOT NULL,
      PRIMARY KEY (source, key)
    );
    CREATE INDEX IF NOT EXISTS incidents_by_activity ON incidents (last_at, source, key);
    CREATE TABLE IF NOT EXISTS incident_events (
      source   text COLLATE "C" NOT NULL,
      key      text COLLATE "C" NOT NULL,
      event_id text COLLATE "C" NOT NULL,
      PRIMARY KEY (source, key, event_id)
    );
  `,
};
