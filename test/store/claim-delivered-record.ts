import type { AttemptRecord, Store } from '../../src/store/store.js';
import { T0 } from './make-ingest-item.js';

/** Claims the one due delivery of `target` and returns the record that would say it was delivered. */
export async function claimDeliveredRecord(store: Store, target: string): Promise<AttemptRecord> {
  const [claimed] = await store.claimDue({ target, now: T0, limit: 1, leaseMs: 60_000 });
  if (claimed === undefined) throw new Error(`no delivery of ${target} is due`);
  return {
    deliveryId: claimed.delivery.id,
    claimToken: claimed.claimToken,
    attempt: { startedAt: T0, durationMs: 5, outcome: 'delivered', statusCode: 200, detail: null },
    next: { state: 'delivered', nextAttemptAt: T0, lastError: null },
  };
}
