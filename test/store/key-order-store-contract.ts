import { describe, expect, it } from 'vitest';
import type { AttemptRecord, ClaimedDelivery, DeliveryHold, Store } from '../../src/store/store.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';

const LEASE = 60_000;
const TARGET = 'tickets';

/** Issue 14 on both journals: deliveries to one target with the same correlation key go one at a time, in order. */
export function describeKeyOrderStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Key order store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    /** One event per key, received 1 ms apart; returns the delivery ids (one target, so `dlv_` order = key order). */
    async function seed(store: Store, keys: readonly (string | null)[], holds?: (DeliveryHold | null)[]) {
      const items = keys.map((key, i) => ({
        ...makeIngestItem({ receivedAt: T0 + i, targets: [TARGET] }),
        keys: [key],
        ...(holds === undefined ? {} : { holds: [holds[i] ?? null] }),
      }));
      await store.ingest(items);
      const listed = await Promise.all(items.map((item) => store.listDeliveries(item.event.id)));
      return listed.map((deliveries) => deliveries[0]?.id ?? '');
    }
    const claim = (store: Store, now = T0 + 100, limit = 10) =>
      store.claimDue({ target: TARGET, now, limit, leaseMs: LEASE });
    const ids = (claims: readonly ClaimedDelivery[]) => claims.map((c) => c.delivery.id);
    function record(
      claimed: ClaimedDelivery,
      state: 'delivered' | 'pending' | 'dead',
      at: number,
      references?: AttemptRecord['references'],
    ): AttemptRecord {
      return {
        deliveryId: claimed.delivery.id,
        claimToken: claimed.claimToken,
        attempt: {
          startedAt: at,
          durationMs: 5,
          outcome: state === 'pending' ? 'retry' : state,
          statusCode: state === 'delivered' ? 200 : 503,
          detail: null,
        },
        next: { state, nextAttemptAt: state === 'pending' ? at + 1_000 : at, lastError: null },
        references,
      };
    }
    async function deliver(store: Store, claims: readonly ClaimedDelivery[], at: number) {
      expect(await store.recordAttempts(claims.map((c) => record(c, 'delivered', at)))).toBe(claims.length);
    }

    it('sends one key serially in id order while other keys and deliveries without a key go side by side', async () => {
      const store = await openMigrated();
      const [a1, b1, a2, none, b2, a3] = await seed(store, ['a', 'b', 'a', null, 'b', 'a']);
      const first = await claim(store);
      expect(ids(first)).toEqual([a1, b1, none]);
      expect(first[0]?.delivery.correlationKey).toBe('a');
      expect(first[2]?.delivery).not.toHaveProperty('correlationKey');
      // In flight: nothing more of either key, however often asked.
      expect(await claim(store, T0 + 200)).toEqual([]);
      await deliver(store, first.slice(0, 1), T0 + 300);
      const second = await claim(store, T0 + 400);
      expect(ids(second)).toEqual([a2]);
      // A retry holds its key's line: its followers wait, spending no attempts, until it is delivered.
      expect(await store.recordAttempts([record(second[0] as ClaimedDelivery, 'pending', T0 + 500)])).toBe(1);
      await deliver(store, first.slice(1, 2), T0 + 500);
      expect(ids(await claim(store, T0 + 600))).toEqual([b2]);
      expect((await store.getDelivery(a3 ?? ''))?.attempts).toBe(0);
      const retried = await claim(store, T0 + 1_600);
      expect(ids(retried)).toEqual([a2]);
      await deliver(store, retried, T0 + 1_700);
      expect(ids(await claim(store, T0 + 1_800))).toEqual([a3]);
    });

    it('keeps an expired claim first in line: after a crash the same delivery is claimed again, not its follower', async () => {
      const store = await openMigrated();
      const [a1 = '', a2 = ''] = await seed(store, ['a', 'a']);
      expect(ids(await claim(store))).toEqual([a1]);
      expect(await claim(store, T0 + 100 + LEASE - 1)).toEqual([]);
      expect(ids(await claim(store, T0 + 100 + LEASE))).toEqual([a1]);
      // nextDueAt does not count a waiting delivery as due (the engine would poll for it in a loop).
      expect(await store.nextDueAt(TARGET)).toBe(T0 + 100 + 2 * LEASE);
      expect((await store.getDelivery(a2 ?? ''))?.waitingFor).toEqual({ id: a1, state: 'pending' });
    });

    it('lets a dead predecessor hold its followers until it is replayed and delivered, and shows it', async () => {
      const store = await openMigrated();
      const [a1, a2, a3] = await seed(store, ['a', 'a', 'a']);
      const first = await claim(store);
      expect(await store.recordAttempts([record(first[0] as ClaimedDelivery, 'dead', T0 + 200)])).toBe(1);
      expect(await claim(store, T0 + 300)).toEqual([]);
      expect(await store.nextDueAt(TARGET)).toBeUndefined();
      const waiting = { id: a1, state: 'dead' };
      expect((await store.getDelivery(a2 ?? ''))?.waitingFor).toEqual(waiting);
      const listed = await store.findDeliveries({ target: TARGET, state: 'pending' });
      expect(listed.map((d) => [d.id, d.waitingFor])).toEqual([
        [a2, waiting],
        [a3, waiting],
      ]);
      expect((await store.getDelivery(a1 ?? ''))?.waitingFor).toBeUndefined();

      expect(await store.replay({ ids: [a1 ?? ''] }, T0 + 400)).toEqual([a1]);
      const replayed = await claim(store, T0 + 500);
      expect(ids(replayed)).toEqual([a1]);
      await deliver(store, replayed, T0 + 600);
      expect(ids(await claim(store, T0 + 700))).toEqual([a2]);
      expect((await store.getDelivery(a3 ?? ''))?.waitingFor).toEqual({ id: a2, state: 'pending' });
    });

    it('does not let held or delivered deliveries hold the line', async () => {
      const store = await openMigrated();
      const held = ['silenced', 'muted', 'suppressed', 'grouped'] as const;
      const holds = [...held.map((state) => ({ state, by: 'test' })), null];
      const all = await seed(store, ['a', 'a', 'a', 'a', 'a'], holds);
      expect(ids(await claim(store))).toEqual([all[4]]);
      // They keep their key, for the listings.
      const listed = await store.findDeliveries({ target: TARGET });
      expect(listed.map((d) => [d.correlationKey, d.waitingFor])).toEqual(all.map(() => ['a', undefined]));
    });

    it('sends the same key to two targets independently', async () => {
      const store = await openMigrated();
      await store.ingest([
        { ...makeIngestItem({ receivedAt: T0, targets: ['one', 'two'] }), keys: ['k', 'k'] },
        { ...makeIngestItem({ receivedAt: T0 + 1, targets: ['one', 'two'] }), keys: ['k', 'k'] },
      ]);
      const one = await store.claimDue({ target: 'one', now: T0 + 10, limit: 5, leaseMs: LEASE });
      const two = await store.claimDue({ target: 'two', now: T0 + 10, limit: 5, leaseMs: LEASE });
      expect([one.length, two.length]).toEqual([1, 1]);
    });

    it('remembers references per target and key: merged when delivered, cleared by a resolve', async () => {
      const store = await openMigrated();
      const [, , , other] = await seed(store, ['a', 'a', 'a', 'b', 'a']);
      const first = await claim(store);
      expect(first.map((c) => c.references)).toEqual([null, null]);
      const [a1, b1] = first as [ClaimedDelivery, ClaimedDelivery];
      expect(b1.delivery.id).toBe(other);
      expect(await store.recordAttempts([record(a1, 'delivered', T0 + 200, { merge: { ticket: 'SOC-1' } })])).toBe(1);
      // A retry writes nothing, even when it carries values.
      expect(await store.recordAttempts([record(b1, 'pending', T0 + 200, { merge: { ticket: 'X' } })])).toBe(1);
      const second = await claim(store, T0 + 300);
      expect(second.map((c) => c.references)).toEqual([{ ticket: 'SOC-1' }]);
      const a2 = second[0] as ClaimedDelivery;
      await store.recordAttempts([record(a2, 'delivered', T0 + 400, { merge: { comment: '7', ticket: 'SOC-1' } })]);
      const third = await claim(store, T0 + 500);
      expect(third[0]?.references).toEqual({ ticket: 'SOC-1', comment: '7' });
      // Listed for the admin API, filtered by target and key.
      const listed = [
        { target: TARGET, key: 'a', values: { ticket: 'SOC-1', comment: '7' }, updatedAt: expect.any(Number) },
      ];
      expect(await store.findReferences({ limit: 10 })).toEqual(listed);
      expect(await store.findReferences({ target: TARGET, key: 'a', limit: 10 })).toEqual(listed);
      expect(await store.findReferences({ target: TARGET, limit: 10 })).toEqual(listed);
      expect(await store.findReferences({ key: 'a', limit: 10 })).toEqual(listed);
      expect(await store.findReferences({ key: 'b', limit: 10 })).toEqual([]);
      expect(await store.findReferences({ target: 'other', limit: 10 })).toEqual([]);
      await store.recordAttempts([record(third[0] as ClaimedDelivery, 'delivered', T0 + 600, { clear: true })]);
      const fourth = await claim(store, T0 + 700);
      expect(fourth.map((c) => [c.delivery.correlationKey, c.references])).toEqual([['a', null]]);
    });

    it('claims a replayed delivery that started its key without references (its create), its followers with them', async () => {
      const store = await openMigrated();
      const [a1 = '', a2 = ''] = await seed(store, ['a', 'a']);
      const [created] = (await claim(store)) as [ClaimedDelivery];
      expect(created.references).toBeNull();
      const started = { merge: { ticket: 'SOC-1' }, started: true };
      expect(await store.recordAttempts([record(created, 'delivered', T0 + 200, started)])).toBe(1);
      const [updated] = (await claim(store, T0 + 300)) as [ClaimedDelivery];
      expect([updated.delivery.id, updated.references]).toEqual([a2, { ticket: 'SOC-1' }]);
      await store.recordAttempts([record(updated, 'delivered', T0 + 400, { merge: {} })]);

      // Both replayed: the create is sent as the create it was, the update still as an update.
      expect(await store.replay({ ids: [a1, a2], includeDelivered: true }, T0 + 500)).toEqual([a1, a2]);
      const [again] = (await claim(store, T0 + 600)) as [ClaimedDelivery];
      expect([again.delivery.id, again.generation, again.references]).toEqual([a1, 1, null]);
      await store.recordAttempts([record(again, 'delivered', T0 + 700, { merge: { ticket: 'SOC-2' }, started: true })]);
      const [next] = (await claim(store, T0 + 800)) as [ClaimedDelivery];
      expect([next.delivery.id, next.references]).toEqual([a2, { ticket: 'SOC-2' }]);
    });

    it("writes a batch's references as one-by-one records would: stale tokens and skipped rounds write none", async () => {
      const store = await openMigrated();
      const [a1, b1, c1, , c2] = await seed(store, ['a', 'b', 'c', 'a', 'c']);
      const first = await claim(store);
      expect(ids(first)).toEqual([a1, b1, c1]);
      const [a, b, c] = first as [ClaimedDelivery, ClaimedDelivery, ClaimedDelivery];
      const stale = { ...b, claimToken: 'stale' };
      const recorded = await store.recordAttempts([
        record(a, 'pending', T0 + 200),
        // Named twice: its first record took the claim, so this one is skipped, values and all.
        record(a, 'delivered', T0 + 210, { merge: { ticket: 'SOC-1' } }),
        record(stale, 'delivered', T0 + 215, { merge: { ticket: 'X' } }),
        record(c, 'delivered', T0 + 220, { merge: { ticket: 'SOC-3' } }),
      ]);
      expect(recorded).toBe(2);
      expect(await store.findReferences({ limit: 10 })).toEqual([
        { target: TARGET, key: 'c', values: { ticket: 'SOC-3' }, updatedAt: T0 + 225 },
      ]);

      const second = await claim(store, T0 + 1_300);
      expect(second.map((claimed) => [claimed.delivery.id, claimed.references])).toEqual([
        [c2, { ticket: 'SOC-3' }],
        [a1, null],
      ]);
      const [c2claimed, a1again] = second as [ClaimedDelivery, ClaimedDelivery];
      const written = await store.recordAttempts([
        record(c2claimed, 'delivered', T0 + 1_400, { clear: true }),
        record(a1again, 'delivered', T0 + 1_410, { merge: { ticket: 'SOC-9' } }),
        record(b, 'delivered', T0 + 1_420, { merge: { ticket: 'SOC-2' } }),
        record(a1again, 'delivered', T0 + 1_430, { merge: { comment: 'again' } }),
      ]);
      expect(written).toBe(3);
      expect(await store.findReferences({ limit: 10 })).toEqual([
        { target: TARGET, key: 'b', values: { ticket: 'SOC-2' }, updatedAt: T0 + 1_425 },
        { target: TARGET, key: 'a', values: { ticket: 'SOC-9' }, updatedAt: T0 + 1_415 },
      ]);
    });

    it('removes references with retention once not written since the events cutoff', async () => {
      const store = await openMigrated();
      await seed(store, ['old', 'young']);
      const claims = await claim(store);
      await store.recordAttempts([
        record(claims[0] as ClaimedDelivery, 'delivered', T0 + 200, { merge: { ticket: 'OLD' } }),
        record(claims[1] as ClaimedDelivery, 'delivered', T0 + 40 * DAY_MS, { merge: { ticket: 'NEW' } }),
      ]);
      const now = T0 + 60 * DAY_MS;
      let after: string | undefined;
      do {
        const batch = await store.pruneBatch({
          eventsBefore: now - 30 * DAY_MS,
          deadBefore: now - 90 * DAY_MS,
          after,
          limit: 500,
        });
        after = batch.next;
      } while (after !== undefined);
      await store.ingest([
        { ...makeIngestItem({ receivedAt: now, targets: [TARGET] }), keys: ['old'] },
        { ...makeIngestItem({ receivedAt: now, targets: [TARGET] }), keys: ['young'] },
      ]);
      const fresh = await claim(store, now + 1);
      expect(fresh.map((c) => [c.delivery.correlationKey, c.references])).toEqual([
        ['old', null],
        ['young', { ticket: 'NEW' }],
      ]);
    });
  });
}
