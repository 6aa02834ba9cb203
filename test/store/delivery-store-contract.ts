import { describe, expect, it } from 'vitest';
import { planReplay } from '../../src/store/plan-replay.js';
import type { AttemptRecord, ClaimedDelivery, Store } from '../../src/store/store.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';
import { T0, makeIngestItem } from './make-ingest-item.js';

const LEASE = 60_000;

/** The delivery side of the journal (claims, attempts, replay, listing), backend-agnostic like the ingest contract. */
export function describeDeliveryStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Delivery store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    async function seed(store: Store, count: number, targets = ['slack', 'mail']): Promise<string[]> {
      const items = Array.from({ length: count }, (_, i) => makeIngestItem({ receivedAt: T0 + i, targets }));
      await store.ingest(items);
      return items.map((item) => item.event.id);
    }
    function record(claimed: ClaimedDelivery, outcome: 'delivered' | 'retry' | 'dead', at: number): AttemptRecord {
      return {
        deliveryId: claimed.delivery.id,
        claimToken: claimed.claimToken,
        attempt: {
          startedAt: at,
          durationMs: 12,
          outcome,
          statusCode: outcome === 'delivered' ? 200 : 503,
          detail: 'x',
        },
        next: {
          state: outcome === 'retry' ? 'pending' : outcome,
          nextAttemptAt: outcome === 'retry' ? at + 5_000 : at,
          lastError: outcome === 'delivered' ? null : 'HTTP 503',
        },
      };
    }

    it('claims due deliveries of one target, oldest first, with their events, and leases them', async () => {
      const store = await openMigrated();
      const events = await seed(store, 3);

      const first = await store.claimDue({ target: 'slack', now: T0 + 10, limit: 2, leaseMs: LEASE });
      expect(first.map((c) => c.event.id)).toEqual(events.slice(0, 2));
      expect(first.every((c) => c.delivery.target === 'slack' && c.delivery.attempts === 0)).toBe(true);
      expect(first[0]?.retryFrom).toBe(T0);
      expect(first[0]?.event.body.toString()).toContain('incident.created');

      // Leased: the next claim gets only the third, and nothing until the lease runs out.
      const second = await store.claimDue({ target: 'slack', now: T0 + 10, limit: 5, leaseMs: LEASE });
      expect(second.map((c) => c.event.id)).toEqual([events[2]]);
      expect(await store.claimDue({ target: 'slack', now: T0 + 10 + LEASE - 1, limit: 5, leaseMs: LEASE })).toEqual([]);
      const expired = await store.claimDue({ target: 'slack', now: T0 + 10 + LEASE, limit: 5, leaseMs: LEASE });
      expect(expired).toHaveLength(3);
      // A claim that expired and was taken again cannot be recorded by its first holder.
      expect(await store.recordAttempts([record(first[0] as ClaimedDelivery, 'delivered', T0 + 20)])).toBe(0);
      // Not yet due deliveries and other targets are never returned; a limit below 1 claims nothing.
      expect(await store.claimDue({ target: 'mail', now: T0 - 1, limit: 5, leaseMs: LEASE })).toEqual([]);
      expect(await store.claimDue({ target: 'mail', now: T0 + 10, limit: 0, leaseMs: LEASE })).toEqual([]);
    });

    it('claims deliveries due at the same instant in the order they were created (oldest first)', async () => {
      const store = await openMigrated();
      const items = Array.from({ length: 12 }, () => makeIngestItem({ receivedAt: T0, targets: ['slack'] }));
      for (const item of items) await store.ingest([item]);
      const claimed = await store.claimDue({ target: 'slack', now: T0, limit: 12, leaseMs: LEASE });
      expect(claimed.map((c) => c.event.id)).toEqual(items.map((item) => item.event.id));
      const listed = await store.findDeliveries({ target: 'slack' });
      expect(listed.map((d) => d.eventId)).toEqual(items.map((item) => item.event.id));
    });

    it('dead-letters the pending deliveries of one target without recording an attempt', async () => {
      const store = await openMigrated();
      await seed(store, 2, ['gone', 'kept']);
      const [claimed] = await store.claimDue({ target: 'gone', now: T0, limit: 1, leaseMs: LEASE });
      expect(await store.deadLetterTarget('gone', 'target "gone" is not in the rules', T0 + 5)).toBe(2);
      const gone = await store.findDeliveries({ target: 'gone' });
      expect(gone.map((d) => [d.state, d.attempts, d.lastError])).toEqual([
        ['dead', 0, 'target "gone" is not in the rules'],
        ['dead', 0, 'target "gone" is not in the rules'],
      ]);
      expect(await store.listAttempts(gone[0]?.id as string)).toEqual([]);
      // The claim it held is void: recording it changes nothing.
      expect(await store.recordAttempts([record(claimed as ClaimedDelivery, 'delivered', T0 + 6)])).toBe(0);
      expect((await store.findDeliveries({ target: 'kept', state: 'pending' })).length).toBe(2);
      expect(await store.deadLetterTarget('gone', 'again', T0 + 7)).toBe(0);
    });

    it('records attempts with their outcome and the delivery state that follows', async () => {
      const store = await openMigrated();
      const [eventId] = await seed(store, 1, ['slack']);
      const [claimed] = await store.claimDue({ target: 'slack', now: T0, limit: 1, leaseMs: LEASE });
      expect(await store.recordAttempts([record(claimed as ClaimedDelivery, 'retry', T0 + 1)])).toBe(1);

      let [delivery] = await store.listDeliveries(eventId as string);
      expect(delivery).toMatchObject({
        state: 'pending',
        attempts: 1,
        nextAttemptAt: T0 + 5_001,
        lastError: 'HTTP 503',
      });
      expect(await store.nextDueAt('slack')).toBe(T0 + 5_001);
      expect(await store.claimDue({ target: 'slack', now: T0 + 5_000, limit: 1, leaseMs: LEASE })).toEqual([]);

      const [again] = await store.claimDue({ target: 'slack', now: T0 + 5_001, limit: 1, leaseMs: LEASE });
      expect(again?.delivery.attempts).toBe(1);
      await store.recordAttempts([record(again as ClaimedDelivery, 'delivered', T0 + 6_000)]);
      [delivery] = await store.listDeliveries(eventId as string);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 2, lastError: null });
      expect(await store.nextDueAt('slack')).toBeUndefined();

      const attempts = await store.listAttempts(delivery?.id as string);
      expect(attempts).toEqual([
        {
          deliveryId: delivery?.id,
          number: 1,
          startedAt: T0 + 1,
          durationMs: 12,
          outcome: 'retry',
          statusCode: 503,
          detail: 'x',
        },
        {
          deliveryId: delivery?.id,
          number: 2,
          startedAt: T0 + 6_000,
          durationMs: 12,
          outcome: 'delivered',
          statusCode: 200,
          detail: 'x',
        },
      ]);
      expect(await store.getDelivery(delivery?.id as string)).toEqual(delivery);
      expect(await store.getDelivery('dlv_999999')).toBeUndefined();
      expect(await store.getDelivery('evt_1')).toBeUndefined();
      expect(await store.listAttempts('dlv_999999')).toEqual([]);
      expect(await store.listAttempts('nonsense')).toEqual([]);
    });

    it('releases claims without counting an attempt, one by one or all at once', async () => {
      const store = await openMigrated();
      await seed(store, 2, ['slack']);
      const [a, b] = await store.claimDue({ target: 'slack', now: T0 + 10, limit: 2, leaseMs: LEASE });
      await store.releaseClaims([
        { deliveryId: a?.delivery.id as string, claimToken: a?.claimToken as string, nextAttemptAt: T0 + 500 },
      ]);
      expect(await store.nextDueAt('slack')).toBe(T0 + 500);
      expect(await store.releaseAllClaims(T0 + 20)).toBe(1);
      const due = await store.claimDue({ target: 'slack', now: T0 + 20, limit: 5, leaseMs: LEASE });
      expect(due.map((c) => c.delivery.id)).toEqual([b?.delivery.id]);
      expect(due[0]?.delivery.attempts).toBe(0);
      expect(await store.releaseAllClaims(T0 + 30)).toBe(1);
      expect(await store.releaseAllClaims(T0 + 30)).toBe(0);
    });

    it('replays dead deliveries by id with a fresh budget, keeping history and the attempt count; pending ones stay', async () => {
      const store = await openMigrated();
      const [eventId] = await seed(store, 1, ['slack', 'mail']);
      const claims = [
        ...(await store.claimDue({ target: 'slack', now: T0, limit: 1, leaseMs: LEASE })),
        ...(await store.claimDue({ target: 'mail', now: T0, limit: 1, leaseMs: LEASE })),
      ];
      await store.recordAttempts([record(claims[0] as ClaimedDelivery, 'dead', T0 + 1)]);
      const [mail, slack] = await store.listDeliveries(eventId as string);

      const replayed = await store.replay(
        { ids: [slack?.id as string, mail?.id as string, 'dlv_424242', 'x'] },
        T0 + 9_000,
      );
      expect(replayed).toEqual([slack?.id]);
      // The count shown stays what the history holds; the retry budget (scheduleAttempts) starts again.
      expect(await store.getDelivery(slack?.id as string)).toMatchObject({ state: 'pending', attempts: 1 });
      const [claimed] = await store.claimDue({ target: 'slack', now: T0 + 9_000, limit: 1, leaseMs: LEASE });
      expect(claimed?.delivery).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: T0 + 9_000 });
      expect(claimed).toMatchObject({ retryFrom: T0 + 9_000, scheduleAttempts: 0, generation: 0 });
      await store.recordAttempts([record(claimed as ClaimedDelivery, 'delivered', T0 + 9_001)]);
      const history = await store.listAttempts(slack?.id as string);
      expect(history.map((a) => [a.number, a.outcome])).toEqual([
        [1, 'dead'],
        [2, 'delivered'],
      ]);
      expect((await store.getDelivery(slack?.id as string))?.attempts).toBe(history.length);
    });

    it('replays a delivered delivery only with includeDelivered, as its next generation (a new idempotency key)', async () => {
      const store = await openMigrated();
      const [eventId] = await seed(store, 1, ['slack']);
      const [first] = await store.claimDue({ target: 'slack', now: T0, limit: 1, leaseMs: LEASE });
      expect(first).toMatchObject({ scheduleAttempts: 0, generation: 0 });
      await store.recordAttempts([record(first as ClaimedDelivery, 'delivered', T0 + 1)]);
      const [delivered] = await store.listDeliveries(eventId as string);
      const id = delivered?.id as string;

      expect(await store.replay({ ids: [id] }, T0 + 100)).toEqual([]);
      expect(await store.replay({ filter: { state: 'delivered' } }, T0 + 100)).toEqual([]);
      expect(await store.getDelivery(id)).toMatchObject({ state: 'delivered', attempts: 1, updatedAt: T0 + 13 });

      expect(await store.replay({ ids: [id], includeDelivered: true }, T0 + 200)).toEqual([id]);
      const [second] = await store.claimDue({ target: 'slack', now: T0 + 200, limit: 1, leaseMs: LEASE });
      expect(second).toMatchObject({ generation: 1, scheduleAttempts: 0, delivery: { attempts: 1 } });
      await store.recordAttempts([record(second as ClaimedDelivery, 'delivered', T0 + 201)]);
      expect(await store.replay({ filter: { target: 'slack' }, includeDelivered: true }, T0 + 300)).toEqual([id]);
      const [third] = await store.claimDue({ target: 'slack', now: T0 + 300, limit: 1, leaseMs: LEASE });
      expect(third).toMatchObject({ generation: 2, delivery: { attempts: 2 } });
      // A dead delivery's replay keeps its generation: the receiver never took it, so the same key is right.
      await store.recordAttempts([record(third as ClaimedDelivery, 'dead', T0 + 301)]);
      expect(await store.replay({ ids: [id] }, T0 + 400)).toEqual([id]);
      const [fourth] = await store.claimDue({ target: 'slack', now: T0 + 400, limit: 1, leaseMs: LEASE });
      expect(fourth).toMatchObject({ generation: 2, delivery: { attempts: 3 } });
    });

    it('never replays held deliveries, by id or by filter, even with includeDelivered', async () => {
      const store = await openMigrated();
      const held = ['silenced', 'muted', 'suppressed', 'grouped'] as const;
      const item = makeIngestItem({ receivedAt: T0, targets: [...held, 'slack', 'mail'] });
      await store.ingest([{ ...item, holds: [...held.map((state) => ({ state, by: 'test' })), null, null] }]);
      const [dead] = await store.claimDue({ target: 'slack', now: T0, limit: 1, leaseMs: LEASE });
      const [delivered] = await store.claimDue({ target: 'mail', now: T0, limit: 1, leaseMs: LEASE });
      await store.recordAttempts([
        record(dead as ClaimedDelivery, 'dead', T0 + 1),
        record(delivered as ClaimedDelivery, 'delivered', T0 + 1),
      ]);
      const all = await store.listDeliveries(item.event.id);
      const heldIds = all.filter((d) => d.target !== 'slack' && d.target !== 'mail').map((d) => d.id);
      const before = await Promise.all(heldIds.map((id) => store.getDelivery(id)));
      expect(before.map((d) => d?.state).sort()).toEqual([...held].sort());

      expect(await store.replay({ ids: heldIds, includeDelivered: true }, T0 + 100)).toEqual([]);
      expect(await store.replay({ filter: { state: 'silenced' }, includeDelivered: true }, T0 + 100)).toEqual([]);
      // Without a state: dead and delivered ones, as `--include-delivered` documents; the held ones stay.
      const replayed = await store.replay({ filter: { eventId: item.event.id }, includeDelivered: true }, T0 + 100);
      expect(replayed).toEqual([dead?.delivery.id, delivered?.delivery.id].sort(byRowId));
      expect(await Promise.all(heldIds.map((id) => store.getDelivery(id)))).toEqual(before);
    });

    it('plans a replay with a limit as the replay then does it: held ones are not counted against the limit', async () => {
      const store = await openMigrated();
      // The held delivery has the lowest id, so a limit applied before leaving held ones out would take it.
      const item = makeIngestItem({ receivedAt: T0, targets: ['quiet', 'slack', 'mail'] });
      await store.ingest([{ ...item, holds: [{ state: 'silenced', by: 'test' }, null, null] }]);
      const claimed = [
        ...(await store.claimDue({ target: 'slack', now: T0, limit: 1, leaseMs: LEASE })),
        ...(await store.claimDue({ target: 'mail', now: T0, limit: 1, leaseMs: LEASE })),
      ];
      await store.recordAttempts(claimed.map((c) => record(c, 'dead', T0 + 1)));
      const selection = { filter: { eventId: item.event.id, limit: 1 }, includeDelivered: true };
      const plan = await planReplay(store, selection);
      expect(plan.requeue).toHaveLength(1);
      expect(await store.replay(selection, T0 + 100)).toEqual(plan.requeue);
    });

    it('counts every recorded attempt, but only counted ones against the retry budget (a 429 is not)', async () => {
      const store = await openMigrated();
      await seed(store, 1, ['slack']);
      const [first] = await store.claimDue({ target: 'slack', now: T0, limit: 1, leaseMs: LEASE });
      await store.recordAttempts([{ ...record(first as ClaimedDelivery, 'retry', T0 + 1), counted: false }]);
      const [second] = await store.claimDue({ target: 'slack', now: T0 + 60_000, limit: 1, leaseMs: LEASE });
      expect(second).toMatchObject({ scheduleAttempts: 0, delivery: { attempts: 1 } });
      await store.recordAttempts([record(second as ClaimedDelivery, 'retry', T0 + 60_001)]);
      const [third] = await store.claimDue({ target: 'slack', now: T0 + 120_000, limit: 1, leaseMs: LEASE });
      expect(third).toMatchObject({ scheduleAttempts: 1, delivery: { attempts: 2 } });
    });

    it('names the targets with pending deliveries (claimed ones included), and no other', async () => {
      const store = await openMigrated();
      expect(await store.pendingTargets()).toEqual([]);
      await seed(store, 3, ['slack', 'mail', 'pager', 'a-team']);
      const finish = async (target: string, outcome: 'delivered' | 'dead') => {
        const claims = await store.claimDue({ target, now: T0 + 10, limit: 10, leaseMs: LEASE });
        await store.recordAttempts(claims.map((c) => record(c, outcome, T0 + 20)));
      };
      await finish('mail', 'delivered');
      await finish('pager', 'dead');
      // Claimed, not yet recorded: still pending.
      expect(await store.claimDue({ target: 'slack', now: T0 + 10, limit: 3, leaseMs: LEASE })).toHaveLength(3);
      expect((await store.pendingTargets()).sort()).toEqual(['a-team', 'slack']);
      await finish('a-team', 'delivered');
      expect(await store.pendingTargets()).toEqual(['slack']);
    });

    it('finds deliveries by state, target, event and time, replays by the same filters, and counts per target', async () => {
      const store = await openMigrated();
      const events = await seed(store, 4, ['slack', 'mail']);
      const slackClaims = await store.claimDue({ target: 'slack', now: T0 + 10, limit: 3, leaseMs: LEASE });
      await store.recordAttempts(slackClaims.map((c) => record(c, 'dead', T0 + 20)));

      expect((await store.findDeliveries({ state: 'dead' })).map((d) => d.eventId)).toEqual(events.slice(0, 3));
      expect(await store.findDeliveries({ state: 'dead', target: 'mail' })).toEqual([]);
      expect((await store.findDeliveries({ since: T0 + 2 })).map((d) => d.eventId)).toEqual([
        events[2],
        events[2],
        events[3],
        events[3],
      ]);
      expect((await store.findDeliveries({ until: T0 + 1 })).map((d) => d.target).sort()).toEqual(['mail', 'slack']);
      expect(await store.findDeliveries({ eventId: events[1] as string, limit: 1 })).toHaveLength(1);
      expect(await store.countByTarget()).toEqual([
        { target: 'mail', state: 'pending', count: 4 },
        { target: 'slack', state: 'dead', count: 3 },
        { target: 'slack', state: 'pending', count: 1 },
      ]);

      const replayed = await store.replay({ filter: { target: 'slack', state: 'dead', since: T0 + 1 } }, T0 + 100);
      expect(replayed).toHaveLength(2);
      expect((await store.findDeliveries({ state: 'dead' })).map((d) => d.eventId)).toEqual([events[0]]);
      // A filter never re-queues pending deliveries, even without a state.
      expect(await store.replay({ filter: { target: 'mail' } }, T0 + 200)).toEqual([]);
      expect(await store.replay({ filter: { target: 'slack', limit: 1 } }, T0 + 300)).toHaveLength(1);
    });
  });
}

function byRowId(a: string | undefined, b: string | undefined): number {
  return Number(a?.slice(4)) - Number(b?.slice(4));
}
