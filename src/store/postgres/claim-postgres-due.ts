import type pg from 'pg';
import type { ClaimRequest, ClaimedDelivery } from '../store.js';
import { attachClaimedEvents } from './attach-claimed-events.js';
import { leasePostgresDue } from './lease-postgres-due.js';

/** `Store.claimDue` on PostgreSQL: lease due deliveries (one statement), then read their events. */
export async function claimPostgresDue(pool: pg.Pool, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  return attachClaimedEvents(pool, await leasePostgresDue(pool, request));
}
