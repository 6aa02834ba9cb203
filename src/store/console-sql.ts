import { newId } from './new-id.js';

/**
 * SQL of the console's reads that both journals share (their dialects agree on all of it but the parameters,
 * written here as `?` and numbered for PostgreSQL by the caller).
 */
export const CONSOLE_SQL = {
  // Event ids start with their receipt time (ULIDs), so a lower bound on the id walks only the window's part of
  // the primary key; received_at then cuts it exactly. No index on received_at is written per event for this.
  eventsPerMinute: `SELECT (received_at / 60000) * 60000 AS minute, kind, severity, count(*) AS count
    FROM events WHERE id >= ? AND received_at >= ?
    GROUP BY (received_at / 60000) * 60000, kind, severity ORDER BY minute, kind, severity`,
  // One range of deliveries_by_state (state, created_at) per state, instead of a scan of every delivery.
  countByStateSince: 'SELECT count(*) AS count FROM deliveries WHERE state = ? AND created_at >= ?',
  latestEvent: 'SELECT id FROM events WHERE id < ? ORDER BY id DESC LIMIT 1',
} as const;

/** The smallest event id of an event received at `since` (any later one sorts after it). */
export function firstEventIdAt(since: number): string {
  return newId('evt_', Math.max(0, since), () => Buffer.alloc(10));
}
