import { newId } from './new-id.js';

/**
 * SQL of the console's reads that both journals share (their dialects agree on all of it but the parameters,
 * written here as `?` and numbered for PostgreSQL by the caller).
 */
export const CONSOLE_SQL = {
  // Counted at ingest (event_counts, migration 8): a window reads at most one row per minute, kind, severity and
  // writer, never the events themselves. Whole minutes: the first minute of the window counts in full.
  // Severity '' stands for none (a primary-key column cannot be null), so it sorts first in both dialects.
  // Minutes summed into buckets of `bucketMs` from the first minute on: parameters first minute, first minute,
  // bucket, bucket, first minute. A 48-hour chart by minute was 50,000 rows and 5 MB of JSON (docs/decisions/console-event-counts.md).
  // The CAST: better-sqlite3 binds every JS number as a REAL, and REAL division would keep each minute apart.
  eventsPerMinute: `SELECT ? + CAST((minute - ?) / ? AS BIGINT) * ? AS minute, kind, nullif(severity, '') AS severity,
      sum(count) AS count
    FROM event_counts WHERE minute >= ?
    GROUP BY 1, kind, event_counts.severity ORDER BY 1, kind, event_counts.severity`,
  // Adds one bucket of eventCountBuckets() (event-count-buckets.ts) to this writer's row.
  countEvents: `INSERT INTO event_counts (minute, kind, severity, writer, count) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (minute, kind, severity, writer) DO UPDATE SET count = event_counts.count + excluded.count`,
  // One range of deliveries_by_state (state, created_at) per state, instead of a scan of every delivery.
  countByStateSince: 'SELECT count(*) AS count FROM deliveries WHERE state = ? AND created_at >= ?',
  latestEvent: 'SELECT id FROM events WHERE id < ? ORDER BY id DESC LIMIT 1',
} as const;

/** The smallest event id of an event received at `since` (any later one sorts after it). */
export function firstEventIdAt(since: number): string {
  return newId('evt_', Math.max(0, since), () => Buffer.alloc(10));
}
