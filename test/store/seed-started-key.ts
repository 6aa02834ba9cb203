import type { Store } from '../../src/store/store.js';
import { T0, makeIngestItem } from './make-ingest-item.js';

/**
 * A journal in which `target` delivered the first event of `key` and captured `references` from the answer:
 * what a daemon leaves after creating a ticket, for tests of what the key's next event would do.
 */
export async function seedStartedKey(
  store: Store,
  target: string,
  key: string,
  references: Readonly<Record<string, string>>,
): Promise<void> {
  await store.ingest([{ ...makeIngestItem({ targets: [target] }), keys: [key] }]);
  const [created] = await store.claimDue({ target, now: T0 + 10, limit: 1, leaseMs: 60_000 });
  if (created === undefined) throw new Error('nothing claimed');
  await store.recordAttempts([
    {
      deliveryId: created.delivery.id,
      claimToken: created.claimToken,
      attempt: { startedAt: T0 + 20, durationMs: 1, outcome: 'delivered', statusCode: 201, detail: 'HTTP 201' },
      references: { merge: references },
      next: { state: 'delivered', nextAttemptAt: T0 + 20, lastError: null },
    },
  ]);
}
