import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * The incident record (docs/incidents.md): one row per source and key, folded from each keyed event in the
 * ingest transaction, and `incident_events`, which events belong to it, for its history and for "what was sent
 * to each target" (read from those events' deliveries rather than stored twice). `incidents_by_activity`
 * serves the listing (newest activity first) and retention (idle records).
 * No backfill: records start with the first keyed event after the upgrade (docs/decisions/incident-record.md).
 */
export const incidentsMigration: SqliteMigration = {
  version: 12,
  name: 'incidents',
  sql: `
    CREATE TABLE incidents (
      source           TEXT    NOT NULL,
      key              TEXT    NOT NULL,
      state            TEXT    NOT NULL CHECK (state IN ('open', 'resolved', 'reopened')),
      title            TEXT,
      severity_highest TEXT,
      severity_current TEXT,
      severity_rank    INTEGER NOT NULL,
      host             TEXT,
      agent            TEXT,
      first_event_id   TEXT    NOT NULL,
      first_at         INTEGER NOT NULL,
      last_event_id    TEXT    NOT NULL,
      last_at          INTEGER NOT NULL,
      events           INTEGER NOT NULL,
      resolved_at      INTEGER,
      reopened         INTEGER NOT NULL,
      PRIMARY KEY (source, key)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX incidents_by_activity ON incidents (last_at, source, key);
    CREATE TABLE incident_events (
      source   TEXT NOT NULL,
      key      TEXT NOT NULL,
      event_id TEXT NOT NULL,
      PRIMARY KEY (source, key, event_id)
    ) STRICT, WITHOUT ROWID;
  `,
};
