import { describe, expect, it } from 'vitest';
import type { DeliveryState, Store } from '../../src/store/store.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';

/** Finishes every due delivery of `target` with `outcome` at `at`, one attempt each. */
export async function finishDeliveries(store: Store, target: string, outcome: 'delivered' | 'dead', at: number) {
  const claimed = await store.claimDue({ target, now: at, limit: 10_000, leaseMs: 60_000 });
  await store.recordAttempts(
    claimed.map((c) => ({
      deliveryId: c.delivery.id,
      claimToken: c.claimToken,
      attempt: { startedAt: at, durationMs: 0, outcome, statusCode: 500, detail: null },
      next: { state: outcome, nextAttemptAt: at, lastError: outcome === 'dead' ? 'gave up' : null },
    })),
  );
  return claimed.length;
}

/** Retention (pruneBatch, countPrunable, journalSize), backend-agnostic like the other contracts. */
export function describeRetentionStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Retention store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    /** One event per target list, received `daysAgo` before `now`; returns their ids. */
    async function seed(store: Store, receivedAt: number, count: number, targets: string[]): Promise<string[]> {
      const items = Array.from({ length: count }, (_, i) => makeIngestItem({ receivedAt: receivedAt + i, targets }));
      await store.ingest(items);
      return items.map((item) => item.event.id);
    }
    async function prunePass(store: Store, cutoffs: { eventsBefore: number; deadBefore: number }, limit = 500) {
      const total = { events: 0, deliveries: 0, attempts: 0, deadLetters: 0, batches: 0 };
      let after: string | undefined;
      do {
        const batch = await store.pruneBatch({ ...cutoffs, after, limit });
        expect(batch.busy).toBe(false);
        total.events += batch.events;
        total.deliveries += batch.deliveries;
        total.attempts += batch.attempts;
        total.deadLetters += batch.deadLetters;
        total.batches += 1;
        after = batch.next;
      } while (after !== undefined);
      return total;
    }
    async function states(store: Store, ids: readonly string[]): Promise<(DeliveryState | 'gone')[]> {
      const found = await Promise.all(ids.map(async (id) => (await store.listDeliveries(id))[0]?.state ?? 'gone'));
      return found;
    }

    const now = T0 + 100 * DAY_MS;
    const cutoffs = { eventsBefore: now - 30 * DAY_MS, deadBefore: now - 90 * DAY_MS };

    it('removes old finished events with their deliveries and attempts, keeps young and pending ones', async () => {
      const store = await openMigrated();
      const delivered = await seed(store, T0, 3, ['slack']); // 100 days old
      await finishDeliveries(store, 'slack', 'delivered', T0 + DAY_MS);
      const pending = await seed(store, T0 + 10, 2, ['mail']); // 100 days old, never attempted
      const young = await seed(store, now - 5 * DAY_MS, 2, ['slack']);
      await finishDeliveries(store, 'slack', 'delivered', now - 4 * DAY_MS);

      expect(await store.countPrunable(cutoffs)).toEqual({ events: 3, deliveries: 3, attempts: 3, deadLetters: 0 });
      const pruned = await prunePass(store, cutoffs);
      expect(pruned).toMatchObject({ events: 3, deliveries: 3, attempts: 3, deadLetters: 0 });

      expect(await store.getEvent(delivered[0] ?? '')).toBeUndefined();
      expect(await states(store, delivered)).toEqual(['gone', 'gone', 'gone']);
      expect(await store.findDeliveries({ state: 'delivered', limit: 100 })).toHaveLength(2);
      expect(await states(store, pending)).toEqual(['pending', 'pending']);
      expect(await states(store, young)).toEqual(['delivered', 'delivered']);
      expect(await store.counts()).toEqual({ events: 4, deliveries: 4 });
      expect(await store.countPrunable(cutoffs)).toEqual({ events: 0, deliveries: 0, attempts: 0, deadLetters: 0 });
    });

    it('keeps an event while any of its deliveries is pending, and removes it once that one is finished', async () => {
      const store = await openMigrated();
      const [id] = await seed(store, T0, 1, ['slack', 'mail']);
      await finishDeliveries(store, 'slack', 'delivered', T0 + 1);
      expect((await prunePass(store, cutoffs)).events).toBe(0);
      expect(await store.listDeliveries(id ?? '')).toHaveLength(2);

      await finishDeliveries(store, 'mail', 'delivered', T0 + 2);
      expect(await prunePass(store, cutoffs)).toMatchObject({ events: 1, deliveries: 2, attempts: 2 });
      expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
    });

    it('keeps dead letters for their own, longer limit, counted from when they died', async () => {
      const store = await openMigrated();
      const oldDead = await seed(store, T0 - 20 * DAY_MS, 2, ['slack']);
      await finishDeliveries(store, 'slack', 'dead', T0 - 19 * DAY_MS); // died 119 days ago
      const recentDead = await seed(store, T0, 1, ['slack']);
      await finishDeliveries(store, 'slack', 'dead', T0 + 20 * DAY_MS); // died 80 days ago: kept

      expect(await store.countPrunable(cutoffs)).toEqual({ events: 2, deliveries: 2, attempts: 2, deadLetters: 2 });
      expect(await prunePass(store, cutoffs)).toMatchObject({ events: 2, deadLetters: 2 });
      expect(await states(store, oldDead)).toEqual(['gone', 'gone']);
      expect(await states(store, recentDead)).toEqual(['dead']);
    });

    it('treats a skipped delivery as final at once, counted from its skip, not kept for the dead limit', async () => {
      const store = await openMigrated();
      const [oldSkip, recentSkip] = await seed(store, T0, 2, ['slack']);
      await finishDeliveries(store, 'slack', 'dead', T0 + 1);
      const [first, second] = await store.findDeliveries({ state: 'dead', limit: 10 });
      const by = (at: number) => ({ actor: 'alice', reason: 'ticket deleted', at });
      expect(await store.skipDelivery(first?.id ?? '', by(now - 40 * DAY_MS))).toBe('skipped');
      expect(await store.skipDelivery(second?.id ?? '', by(now - 5 * DAY_MS))).toBe('skipped');

      expect(await store.countPrunable(cutoffs)).toEqual({ events: 1, deliveries: 1, attempts: 1, deadLetters: 0 });
      expect(await prunePass(store, cutoffs)).toMatchObject({ events: 1, deadLetters: 0 });
      expect(await states(store, [oldSkip ?? '', recentSkip ?? ''])).toEqual(['gone', 'skipped']);
    });

    it('keeps a delivery replayed and delivered recently, though its event is old', async () => {
      const store = await openMigrated();
      const [id] = await seed(store, T0, 1, ['slack']);
      await finishDeliveries(store, 'slack', 'dead', T0 + 1);
      const [delivery] = await store.listDeliveries(id ?? '');
      await store.replay({ ids: [delivery?.id ?? ''] }, now - DAY_MS);
      expect((await prunePass(store, cutoffs)).events).toBe(0); // pending again
      await finishDeliveries(store, 'slack', 'delivered', now - DAY_MS);
      expect((await prunePass(store, cutoffs)).events).toBe(0); // finished yesterday
      expect((await prunePass(store, { ...cutoffs, eventsBefore: now })).events).toBe(1);
    });

    it('walks the journal in small batches and stops the pass at the first event young enough to keep', async () => {
      const store = await openMigrated();
      await seed(store, T0, 5, ['slack']);
      await seed(store, now - DAY_MS, 4, ['slack']);
      await finishDeliveries(store, 'slack', 'delivered', T0 + DAY_MS);

      const first = await store.pruneBatch({ ...cutoffs, limit: 2 });
      expect(first).toMatchObject({ events: 2, deliveries: 2, busy: false });
      expect(first.next).toBeDefined();
      const pass = await prunePass(store, cutoffs, 2);
      expect(pass.events).toBe(3);
      // Batches of 2: the third looks at the last old event and a young one, and ends the pass there.
      expect(pass.batches).toBe(2);
      expect(await store.counts()).toEqual({ events: 4, deliveries: 4 });
    });

    it('removes a sent digest once its event is gone; keeps open ones and those whose event stays', async () => {
      const store = await openMigrated();
      // An interval longer than the test: while a sent digest is in the journal, the next one of its key waits for it.
      const group = (key: string, n: number) => ({
        route: 'storm',
        key,
        waitMs: 1_000,
        intervalMs: 200 * DAY_MS,
        maxEvents: 10,
        digestId: `dig_${key}_${n}`,
      });
      const grouped = (target: string, key: string, n: number, receivedAt: number) => ({
        ...makeIngestItem({ targets: [target], receivedAt }),
        groups: [group(key, n)],
      });
      await store.ingest([grouped('slack', 'a', 1, T0), grouped('slack', 'a', 1, T0 + 1), grouped('mail', 'c', 1, T0)]);
      const build = () => ({ ...makeIngestItem({ receivedAt: T0 + 2_000 }).event, kind: 'switchyard.digest' });
      expect(await store.sendDigest('dig_a_1', T0 + 2_000, build)).toBeDefined();
      expect(await store.sendDigest('dig_c_1', T0 + 2_000, build)).toBeDefined();
      await finishDeliveries(store, 'slack', 'delivered', T0 + 3_000); // c's digest is still pending for mail
      await store.ingest([grouped('slack', 'b', 1, now - DAY_MS)]); // open, young

      const pruned = await prunePass(store, cutoffs);
      expect(pruned.events).toBe(4); // a's two, a's digest, c's one (grouped: final); c's digest event is pending

      // The next digest of a goes after its wait: the one sent is gone. c's still holds the next one back.
      await store.ingest([grouped('slack', 'a', 2, now), grouped('mail', 'c', 2, now)]);
      expect(await store.findDueDigests(now + 1_000, 10)).toEqual(['dig_b_1', 'dig_a_2']);
    });

    it('reports the journal size in bytes', async () => {
      const store = await openMigrated();
      const empty = await store.journalSize();
      expect(empty).toBeGreaterThan(0);
      await seed(store, T0, 200, ['slack', 'mail']);
      expect(await store.journalSize()).toBeGreaterThan(empty);
    });
  });
}
