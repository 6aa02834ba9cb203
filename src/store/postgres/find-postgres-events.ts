import type pg from 'pg';
import type { EventFilter, EventSummary } from '../store.js';
import { POSTGRES_COLUMNS } from './postgres-columns.js';
import { postgresEventFilter } from './postgres-event-filter.js';

const DEFAULT_LIMIT = 100;

/**
 * Event listings for the admin API, ordered by id, which the primary key already sorts: ingest makes ids
 * time-ordered (ULIDs from the receipt time), and the "C" collation compares them bytewise, as SQLite does.
 */
export async function findPostgresEvents(pool: pg.Pool, filter: EventFilter): Promise<EventSummary[]> {
  const { where, params } = postgresEventFilter(filter);
  const limit = Math.max(0, Math.floor(filter.limit ?? DEFAULT_LIMIT));
  const result = await pool.query<EventSummary>(
    `SELECT ${POSTGRES_COLUMNS.eventSummary} FROM events ${where}
     ORDER BY events.id ${filter.order === 'newest' ? 'DESC' : 'ASC'} LIMIT $${params.length + 1}`,
    [...params, limit],
  );
  return result.rows;
}
