import { describe, expect, it } from 'vitest';
import type { IngestItem, Store } from '../../src/store/store.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';
import { T0, makeIngestItem } from './make-ingest-item.js';

/** The console's reads (issue 13), backend-agnostic like the other contracts. */
export function describeConsoleStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Console store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    /** Six events, 20 s apart: kinds alternate, severities high/low, titles "Disk 0 full" ... on even ones. */
    async function seed(store: Store): Promise<IngestItem[]> {
      const items = Array.from({ length: 6 }, (_, i) => {
        const made = makeIngestItem({
          receivedAt: T0 + i * 20_000,
          severity: i < 4 ? 'high' : 'low',
          targets: ['slack', 'mail'],
        });
        const kind = i % 2 === 0 ? 'incident.created' : 'agent.offline';
        const title = i % 2 === 0 ? `Disk ${i} 50%_full` : null;
        return { ...made, event: { ...made.event, kind, title } };
      });
      await store.ingest(items);
      return items;
    }
    async function fail(store: Store, target: string, now: number, state: 'dead' | 'retry', error: string) {
      const claims = await store.claimDue({ target, now, limit: 1, leaseMs: 60_000 });
      await store.recordAttempts(
        claims.map((c) => ({
          deliveryId: c.delivery.id,
          claimToken: c.claimToken,
          attempt: { startedAt: now, durationMs: 5, outcome: state, statusCode: 503, detail: null },
          next: { state: state === 'dead' ? 'dead' : 'pending', nextAttemptAt: now + 60_000, lastError: error },
        })),
      );
      return claims.map((c) => c.delivery.id);
    }

    it('filters events by severity and by title text (case and LIKE characters taken literally), with titles listed', async () => {
      const store = await openMigrated();
      const ids = (await seed(store)).map((item) => item.event.id);
      const find = async (filter: Parameters<Store['findEvents']>[0]) =>
        (await store.findEvents(filter)).map((e) => e.id);
      expect(await find({ severity: 'low' })).toEqual(ids.slice(4));
      expect(await find({ titleContains: 'disk' })).toEqual([ids[0], ids[2], ids[4]]);
      expect(await find({ titleContains: '2 50%_F' })).toEqual([ids[2]]);
      expect(await find({ titleContains: '50%' })).toHaveLength(3);
      expect(await find({ titleContains: '5_%' })).toEqual([]);
      expect(await find({ titleContains: 'disk', severity: 'high', order: 'newest' })).toEqual([ids[2], ids[0]]);
      const [first, second] = await store.findEvents({ limit: 2 });
      expect(first?.title).toBe('Disk 0 50%_full');
      expect(second?.title).toBeNull();
    });

    it('finds the id a bounded scan stops at, and stops there', async () => {
      const store = await openMigrated();
      const ids = (await seed(store)).map((item) => item.event.id);
      expect(await store.eventIdAt({ order: 'newest' }, 2)).toBe(ids[3]);
      expect(await store.eventIdAt({ order: 'newest', afterId: ids[5] }, 0)).toBe(ids[4]);
      expect(await store.eventIdAt({ order: 'oldest', severity: 'low' }, 1)).toBe(ids[5]);
      expect(await store.eventIdAt({}, 6)).toBeUndefined();
      const stopAtId = ids[3];
      const found = await store.findEvents({ order: 'newest', titleContains: 'disk', stopAtId });
      expect(found.map((e) => e.id)).toEqual([ids[4]]);
    });

    it('counts events per minute by kind and severity (from the minute of a time on), and deliveries by state', async () => {
      const store = await openMigrated();
      await seed(store);
      // T0 + 20 s is inside the minute T0, which counts in full (event 0 at T0 too).
      expect(await store.eventsPerMinute(T0 + 20_000)).toEqual([
        { minute: T0, kind: 'agent.offline', severity: 'high', count: 1 },
        { minute: T0, kind: 'incident.created', severity: 'high', count: 2 },
        { minute: T0 + 60_000, kind: 'agent.offline', severity: 'high', count: 1 },
        { minute: T0 + 60_000, kind: 'agent.offline', severity: 'low', count: 1 },
        { minute: T0 + 60_000, kind: 'incident.created', severity: 'low', count: 1 },
      ]);
      expect(await store.eventsPerMinute(T0 + 120_000)).toEqual([]);
      await fail(store, 'slack', T0 + 200_000, 'dead', 'HTTP 410');
      // The dead one is event 0's (claimed oldest first), created at T0.
      expect(await store.countDeliveriesByState(T0)).toEqual([
        { state: 'pending', count: 11 },
        { state: 'dead', count: 1 },
      ]);
      expect(await store.countDeliveriesByState(T0 + 20_000)).toEqual([{ state: 'pending', count: 10 }]);
    });

    it('reports per target pending, dead, retrying and the last error', async () => {
      const store = await openMigrated();
      await seed(store);
      await fail(store, 'slack', T0 + 200_000, 'dead', 'HTTP 410 gone');
      await fail(store, 'slack', T0 + 210_000, 'retry', 'HTTP 503 busy');
      expect(await store.targetHealth()).toEqual([
        { target: 'mail', pending: 6, dead: 0, retrying: 0, lastError: null, lastErrorAt: null },
        {
          target: 'slack',
          pending: 5,
          dead: 1,
          retrying: 1,
          lastError: 'HTTP 503 busy',
          lastErrorAt: T0 + 210_005, // the attempt's end
        },
      ]);
      const dead = await store.findDeliveries({ state: 'dead', lastErrorContains: '410 GONE' });
      expect(dead).toHaveLength(1);
      expect(await store.findDeliveries({ lastErrorContains: '%' })).toEqual([]);
    });

    it('lists deliveries changed after a position and before a time, and where changes stood at a time', async () => {
      const store = await openMigrated();
      const items = await seed(store);
      const LATER = T0 + 1_000_000;
      const now = await store.latestChange(LATER);
      expect(now.eventId).toBe(items[5]?.event.id);
      expect(now.delivery).toEqual({ updatedAt: T0 + 100_000, id: expect.stringMatching(/^dlv_/) });
      // Before the last event's receipt: the one before it, and a delivery of that time.
      expect(await store.latestChange(T0 + 100_000)).toEqual({
        eventId: items[4]?.event.id,
        delivery: { updatedAt: T0 + 80_000, id: expect.stringMatching(/^dlv_/) },
      });
      expect(await store.latestChange(T0)).toEqual({ eventId: null, delivery: null });
      const from = now.delivery ?? { updatedAt: 0, id: 'dlv_0' };
      expect(await store.findChangedDeliveries(from, LATER, 10)).toEqual([]);
      const [failed] = await fail(store, 'slack', T0 + 200_000, 'dead', 'HTTP 410');
      // Not before it was changed.
      expect(await store.findChangedDeliveries(from, T0 + 200_005, 10)).toEqual([]);
      const changed = await store.findChangedDeliveries(from, LATER, 10);
      expect(changed.map((d) => [d.id, d.state, d.updatedAt])).toEqual([[failed, 'dead', T0 + 200_005]]);
      const all = await store.findChangedDeliveries({ updatedAt: 0, id: 'dlv_0' }, LATER, 5);
      expect(all).toHaveLength(5);
      const last = { updatedAt: all[4]?.updatedAt ?? 0, id: all[4]?.id ?? '' };
      const rest = await store.findChangedDeliveries(last, LATER, 50);
      expect(rest).toHaveLength(7);
      expect(new Set([...all, ...rest].map((d) => d.id)).size).toBe(12);
    });
  });
}
