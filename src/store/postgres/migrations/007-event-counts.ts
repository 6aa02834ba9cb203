import { eventCountsBackfillSql } from '../../event-counts-backfill-sql.js';
import type { PostgresMigration } from '../postgres-migration.js';

/**
 * As SQLite's migration 8 (src/store/sqlite/migrations/008-event-counts.ts), which says why; the backfill of the
 * last 48 hours is counted under the writer 'migration' (the overview sums over writers).
 */
export const eventCountsMigration: PostgresMigration = {
  version: 7,
  name: 'event-counts',
  sql: `
    CREATE TABLE event_counts (
      minute bigint NOT NULL,
      kind text NOT NULL,
      severity text NOT NULL,
      writer text NOT NULL,
      count bigint NOT NULL,
      PRIMARY KEY (minute, kind, severity, writer)
    );
    ${eventCountsBackfillSql('(extract(epoch FROM clock_timestamp()) * 1000)::bigint', "'migration'")}
  `,
};
