import type Database from 'better-sqlite3';
import type { EventFilter, EventSummary } from '../store.js';
import { eventFilterSql } from './event-filter-sql.js';

const DEFAULT_LIMIT = 100;
const SUMMARY_COLUMNS = `id, source, kind, severity, occurred_at AS occurredAt, received_at AS receivedAt,
  lower(hex(body_sha256)) AS bodySha256, rules_version AS rulesVersion, matched_routes AS matchedRoutes, title`;

/**
 * Event listings for the admin API. Ordered by id, which the primary key already sorts: ingest makes ids
 * time-ordered (ULIDs from the receipt time), so this is receipt order without an index on `received_at`.
 */
export function createSqliteEvents(db: Database.Database) {
  return {
    findEvents(filter: EventFilter): EventSummary[] {
      const { where, params } = eventFilterSql(filter);
      const limit = Math.max(0, Math.floor(filter.limit ?? DEFAULT_LIMIT));
      const rows = db
        .prepare<(string | number)[], Omit<EventSummary, 'matchedRoutes'> & { matchedRoutes: string }>(
          `SELECT ${SUMMARY_COLUMNS} FROM events ${where}
           ORDER BY events.id ${filter.order === 'newest' ? 'DESC' : 'ASC'} LIMIT ?`,
        )
        .all(...params, limit);
      return rows.map((row) => ({ ...row, matchedRoutes: JSON.parse(row.matchedRoutes) as string[] }));
    },
  };
}

export type SqliteEvents = ReturnType<typeof createSqliteEvents>;
