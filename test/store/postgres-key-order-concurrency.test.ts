import { afterEach, expect, it } from 'vitest';
import type { ClaimedDelivery, Store } from '../../src/store/store.js';
import { describePostgres } from './describe-postgres.js';
import { T0, makeIngestItem } from './make-ingest-item.js';
import { tempPostgresJournal, type TempPostgresJournal } from './temp-postgres-journal.js';

const LEASE = 60_000;
const KEYS = ['a', 'b', 'c', 'd'];
const PER_KEY = 15;

// Issue 14 with several instances: each store has its own pool, as each Switchyard process would.
describePostgres('PostgreSQL order per key shared by several instances', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function instance(on: TempPostgresJournal): Promise<Store> {
    const store = on.openWith({ pool: { max: 4 } });
    cleanups.push(() => store.close());
    await store.migrate();
    return store;
  }

  it('never hands out two deliveries of one key at once, and hands each key out in id order', async () => {
    const on = await tempPostgresJournal();
    cleanups.push(() => on.dispose());
    const [a, b] = [await instance(on), await instance(on)] as const;
    const items = Array.from({ length: KEYS.length * PER_KEY }, (_, i) => ({
      ...makeIngestItem({ receivedAt: T0 + i, targets: ['tickets'] }),
      keys: [KEYS[i % KEYS.length] ?? null],
    }));
    await a.ingest(items);

    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    const sent = new Map<string, number[]>();
    // Claims in flight on both instances at once, four per instance; each claim is recorded as delivered at once,
    // its key let go just before the record is sent (so a claim of the key's next one can only be an overlap if
    // it came before that).
    const work = async (store: Store, other: Store): Promise<void> => {
      for (let round = 0; round < 200; round++) {
        const claims = await store.claimDue({ target: 'tickets', now: T0 + 1_000, limit: 3, leaseMs: LEASE });
        for (const claim of claims) {
          const key = claim.delivery.correlationKey ?? '';
          if (inFlight.has(key)) overlaps.push(`${key}: ${claim.delivery.id}`);
          inFlight.add(key);
          (sent.get(key) ?? sent.set(key, []).get(key))?.push(Number(claim.delivery.id.slice(4)));
        }
        await Promise.all(claims.map((claim) => deliver(round % 2 === 0 ? store : other, claim, inFlight)));
        if ([...sent.values()].flat().length === items.length) return;
      }
    };
    await Promise.all([work(a, b), work(b, a), work(a, b), work(b, a), work(a, b), work(b, a)]);

    expect(overlaps).toEqual([]);
    expect([...sent.values()].flat()).toHaveLength(items.length);
    for (const ids of sent.values()) expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(await a.countByTarget()).toEqual([{ target: 'tickets', state: 'delivered', count: items.length }]);
  });
});

async function deliver(store: Store, claim: ClaimedDelivery, inFlight: Set<string>): Promise<void> {
  inFlight.delete(claim.delivery.correlationKey ?? '');
  const applied = await store.recordAttempts([
    {
      deliveryId: claim.delivery.id,
      claimToken: claim.claimToken,
      attempt: { startedAt: T0 + 1_000, durationMs: 1, outcome: 'delivered', statusCode: 200, detail: null },
      next: { state: 'delivered', nextAttemptAt: T0 + 1_000, lastError: null },
      references: { merge: { last: claim.delivery.id } },
    },
  ]);
  expect(applied).toBe(1);
}
