import { describe, expect, it } from 'vitest';
import type { DeliveryFilter, EventFilter, IngestItem, Store } from '../../src/store/store.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';
import { T0, makeIngestItem } from './make-ingest-item.js';

/** Listings for the admin API (filters, order, keyset pages), backend-agnostic like the other contracts. */
export function describeListingStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Listing store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    function item(i: number, kind: string, source: string, targets: readonly string[]): IngestItem {
      const made = makeIngestItem({ receivedAt: T0 + i * 1000, source, targets });
      return { ...made, event: { ...made.event, kind } };
    }
    /** Six events, one a second: kinds alternate, the first three from `monitor`, the rest from `other`. */
    async function seed(store: Store): Promise<IngestItem[]> {
      const items = Array.from({ length: 6 }, (_, i) =>
        item(i, i % 2 === 0 ? 'incident.created' : 'agent.offline', i < 3 ? 'monitor' : 'other', ['slack', 'mail']),
      );
      await store.ingest(items);
      // The slack deliveries of events 0 and 1 die.
      const claims = await store.claimDue({ target: 'slack', now: T0 + 1500, limit: 2, leaseMs: 60_000 });
      await store.recordAttempts(
        claims.map((c) => ({
          deliveryId: c.delivery.id,
          claimToken: c.claimToken,
          attempt: { startedAt: T0 + 1500, durationMs: 5, outcome: 'dead', statusCode: 404, detail: null },
          next: { state: 'dead', nextAttemptAt: T0 + 1500, lastError: 'HTTP 404' },
        })),
      );
      return items;
    }
    async function pages<T>(find: (after: T | undefined) => Promise<T[]>): Promise<T[][]> {
      const found: T[][] = [];
      let after: T | undefined;
      for (;;) {
        const page = await find(after);
        if (page.length === 0) return found;
        found.push(page);
        after = page[page.length - 1];
      }
    }

    it('lists events without bodies, oldest or newest first, filtered by source, kind and time', async () => {
      const store = await openMigrated();
      const ids = (await seed(store)).map((i) => i.event.id);
      const find = async (filter: EventFilter) => (await store.findEvents(filter)).map((e) => e.id);

      const [first] = await store.findEvents({ limit: 1 });
      expect(first).toEqual({
        id: ids[0],
        source: 'monitor',
        kind: 'incident.created',
        severity: 'high',
        occurredAt: '2026-11-22T10:00:00Z',
        receivedAt: T0,
        bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        rulesVersion: 'rules-v1',
        matchedRoutes: ['critical-incidents', 'everything'],
        title: null,
      });
      expect(await find({})).toEqual(ids);
      expect(await find({ order: 'newest' })).toEqual([...ids].reverse());
      expect(await find({ source: 'other' })).toEqual(ids.slice(3));
      expect(await find({ kind: 'agent.offline' })).toEqual([ids[1], ids[3], ids[5]]);
      expect(await find({ since: T0 + 2000, until: T0 + 4000 })).toEqual([ids[2], ids[3]]);
      expect(await find({ source: 'monitor', kind: 'incident.created', order: 'newest' })).toEqual([ids[2], ids[0]]);
      expect(await find({ kind: 'nothing.like.this' })).toEqual([]);
    });

    it('lists events by their deliveries: to a target, in a state, or both at once', async () => {
      const store = await openMigrated();
      const ids = (await seed(store)).map((i) => i.event.id);
      const find = async (filter: EventFilter) => (await store.findEvents(filter)).map((e) => e.id);
      expect(await find({ deliveryState: 'dead' })).toEqual(ids.slice(0, 2));
      expect(await find({ target: 'slack', deliveryState: 'dead' })).toEqual(ids.slice(0, 2));
      expect(await find({ target: 'mail', deliveryState: 'dead' })).toEqual([]);
      expect(await find({ target: 'mail' })).toEqual(ids);
      expect(await find({ target: 'pager' })).toEqual([]);
    });

    it('pages through events by id in both orders, each event exactly once', async () => {
      const store = await openMigrated();
      const ids = (await seed(store)).map((i) => i.event.id);
      for (const order of ['oldest', 'newest'] as const) {
        const found = await pages<string>(async (afterId) =>
          (await store.findEvents({ order, afterId, limit: 4 })).map((e) => e.id),
        );
        expect(found.map((p) => p.length)).toEqual([4, 2]);
        expect(found.flat()).toEqual(order === 'oldest' ? ids : [...ids].reverse());
      }
      // The cursor combines with filters.
      expect((await store.findEvents({ kind: 'agent.offline', afterId: ids[1] })).map((e) => e.id)).toEqual([
        ids[3],
        ids[5],
      ]);
    });

    it('lists deliveries by event kind, newest first, and pages through them, ties on time included', async () => {
      const store = await openMigrated();
      const ids = (await seed(store)).map((i) => i.event.id);
      const events = async (filter: DeliveryFilter) => (await store.findDeliveries(filter)).map((d) => d.eventId);
      expect(await events({ kind: 'agent.offline', target: 'slack' })).toEqual([ids[1], ids[3], ids[5]]);
      expect(await events({ kind: 'agent.offline', state: 'dead' })).toEqual([ids[1]]);
      expect(await events({ target: 'mail', order: 'newest' })).toEqual([...ids].reverse());

      // Two deliveries per event share `createdAt`: a page boundary between them must not skip or repeat one.
      const all = await store.findDeliveries({ limit: 100 });
      for (const order of ['oldest', 'newest'] as const) {
        const found = await pages<{ id: string; createdAt: number }>((after) =>
          store.findDeliveries({ order, after, limit: 3 }),
        );
        expect(found.map((p) => p.length)).toEqual([3, 3, 3, 3]);
        const listed = found.flat().map((d) => d.id);
        expect(listed).toEqual((order === 'oldest' ? all : [...all].reverse()).map((d) => d.id));
        expect(new Set(listed).size).toBe(12);
      }
      // A position that names no delivery of this journal matches nothing rather than everything.
      expect(await store.findDeliveries({ after: { createdAt: T0, id: 'not-an-id' } })).toEqual([]);
    });

    it('replays by event kind, never touching other kinds or pending deliveries', async () => {
      const store = await openMigrated();
      const ids = (await seed(store)).map((i) => i.event.id);
      const replayed = await store.replay({ filter: { kind: 'agent.offline' } }, T0 + 10_000);
      expect(replayed).toHaveLength(1);
      expect((await store.getDelivery(replayed[0] as string))?.eventId).toBe(ids[1]);
      expect((await store.findDeliveries({ state: 'dead' })).map((d) => d.eventId)).toEqual([ids[0]]);
    });
  });
}
