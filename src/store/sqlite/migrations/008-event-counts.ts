import { eventCountsBackfillSql } from '../../event-counts-backfill-sql.js';
import type { SqliteMigration } from '../sqlite-migration.js';

/**
 * Events per minute counted at ingest (issue 13's overview): the console's chart read every event of its window,
 * bodies and all, 240-308 ms for 48 hours of a million-event journal. Ingest now adds each group's new events to
 * `event_counts`, one row per minute, kind and severity ('' for none); the overview sums at most hours * 60 rows
 * per kind and severity. `writer` keeps PostgreSQL's instances off each other's rows; SQLite has one writer,
 * 'sqlite'. The backfill counts only the last 48 hours (the overview's longest window) through the primary key,
 * so a big journal migrates quickly; older events are never charted and are not counted.
 */
export const eventCountsMigration: SqliteMigration = {
  version: 8,
  name: 'event-counts',
  sql: `
    CREATE TABLE event_counts (
      minute INTEGER NOT NULL,
      kind TEXT NOT NULL,
      severity TEXT NOT NULL,
      writer TEXT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (minute, kind, severity, writer)
    ) WITHOUT ROWID;
    ${eventCountsBackfillSql("CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)", "'sqlite'")}
  `,
};
