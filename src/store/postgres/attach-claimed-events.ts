import type pg from 'pg';
import type { ClaimedDelivery, StoredEvent } from '../store.js';
import type { Leased } from './lease-postgres-due.js';
import { POSTGRES_COLUMNS } from './postgres-columns.js';
import { readPostgresReferences } from './postgres-references.js';
import { toStoredDelivery } from '../key-order-sql.js';

/**
 * The leased deliveries with their events (read by the lease itself), oldest due first, and the references of
 * their keys, read after the lease's commit, outside any transaction or lock (only when a delivery has a key).
 */
export async function attachClaimedEvents(pool: pg.Pool, leased: Leased): Promise<ClaimedDelivery[]> {
  const { claimToken } = leased;
  if (leased.rows.length === 0) return [];
  const unread = [...new Set(leased.rows.filter((row) => row.event === undefined).map((row) => row.eventId))];
  const read =
    unread.length === 0
      ? []
      : (await pool.query<StoredEvent>(`SELECT ${POSTGRES_COLUMNS.event} FROM events WHERE id = ANY($1)`, [unread]))
          .rows;
  const byId = new Map(read.map((event) => [event.id, event]));
  const references = await readPostgresReferences(pool, leased.rows);
  // RETURNING has no order: restore the claim's (oldest due first).
  const rows = [...leased.rows].sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.rowId - b.rowId);
  return rows.map(({ rowId, retryFrom, scheduleAttempts, generation, suppressedCount, event: joined, ...row }) => {
    const delivery = toStoredDelivery(row);
    const event = joined ?? byId.get(delivery.eventId);
    if (event === undefined) throw new Error(`delivery ${delivery.id} refers to a missing event`);
    return {
      delivery,
      event,
      claimToken,
      retryFrom,
      scheduleAttempts,
      generation,
      suppressedCount,
      references: references.get(rowId) ?? null,
    };
  });
}
