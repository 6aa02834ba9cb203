import { describe, expect, it } from 'vitest';
import type { PruneCutoffs } from '../../src/store/prune-request.js';
import type { DeliveryState, IngestItem, Store } from '../../src/store/store.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';
import { migratedStores } from './migrated-stores.js';
import { finishDeliveries } from './retention-store-contract.js';
import { silence } from './silence-store-contract.js';
import type { TestJournal } from './store-contract.js';

const HOUR = 3_600_000;
const now = T0 + 100 * DAY_MS;
const cutoffs: PruneCutoffs = { eventsBefore: now - 30 * DAY_MS, deadBefore: now - 90 * DAY_MS };

/** Retention of held deliveries: an event goes only once nothing can send what it holds any more. */
export function describeHeldRetentionStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Held retention store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    /** `countPrunable` (the dry run) first, then a whole pass, which must remove exactly what it counted. */
    async function prune(store: Store): Promise<number> {
      const counted = await store.countPrunable(cutoffs);
      let events = 0;
      let after: string | undefined;
      do {
        const batch = await store.pruneBatch({ ...cutoffs, after, limit: 3 });
        events += batch.events;
        after = batch.next;
      } while (after !== undefined);
      expect(events).toBe(counted.events);
      return events;
    }
    async function ingest(store: Store, item: IngestItem): Promise<string> {
      await store.ingest([item]);
      return item.event.id;
    }
    const held = (receivedAt: number, state: 'silenced' | 'muted', by: string) => ({
      ...makeIngestItem({ receivedAt, targets: ['slack'] }),
      holds: [{ state, by }],
    });
    const stateOf = async (store: Store, id: string): Promise<DeliveryState | 'gone'> =>
      (await store.listDeliveries(id))[0]?.state ?? 'gone';

    it('keeps a silenced event while its silence may still send it', async () => {
      const store = await openMigrated();
      const ended = { startsAt: T0, endsAt: T0 + HOUR };
      await store.createSilence(silence({ id: 'sil_unreleased', ...ended, onExpiry: 'deliver_unresolved' }));
      await store.createSilence(silence({ id: 'sil_released', ...ended, onExpiry: 'deliver_unresolved' }));
      await store.createSilence(silence({ id: 'sil_in_force', startsAt: T0, endsAt: now + DAY_MS }));
      await store.createSilence(silence({ id: 'sil_ended', ...ended }));
      await store.createSilence(silence({ id: 'sil_just_ended', startsAt: T0, endsAt: now - DAY_MS }));
      const unreleased = await ingest(store, held(T0 + 1, 'silenced', 'sil_unreleased'));
      const released = await ingest(store, held(T0 + 2, 'silenced', 'sil_released'));
      const inForce = await ingest(store, held(T0 + 3, 'silenced', 'sil_in_force'));
      const ended1 = await ingest(store, held(T0 + 4, 'silenced', 'sil_ended'));
      const justEnded = await ingest(store, held(T0 + 5, 'silenced', 'sil_just_ended'));
      // Released with nothing chosen (its incident was resolved meanwhile): nothing can send it any more.
      expect(await store.releaseSilence('sil_released', [], T0 + 2 * HOUR)).toBe(0);

      expect(await prune(store)).toBe(2);
      expect(await stateOf(store, released)).toBe('gone');
      expect(await stateOf(store, ended1)).toBe('gone');
      expect(await stateOf(store, inForce)).toBe('silenced');
      expect(await stateOf(store, justEnded)).toBe('silenced'); // final for less than retention.events

      // The releaser comes round late (a daemon that was down): what it held is still there to send.
      const [delivery] = await store.listDeliveries(unreleased);
      expect(await store.releaseSilence('sil_unreleased', [delivery?.id ?? ''], now)).toBe(1);
      expect(await stateOf(store, unreleased)).toBe('pending');
      expect(await prune(store)).toBe(0);
    });

    it('keeps grouped events until their digest is sent, so the digest lists them', async () => {
      const store = await openMigrated();
      const group = { route: 'storm', key: 'storm|ssh', waitMs: 80_000, intervalMs: 0, maxEvents: 10 };
      const grouped = Array.from({ length: 5 }, (_, i) => ({
        ...makeIngestItem({ receivedAt: T0 + i, targets: ['slack'] }),
        groups: [{ ...group, digestId: 'dig_storm' }],
      }));
      await store.ingest(grouped);
      const muted = await ingest(store, held(T0 + 10, 'muted', 'maintenance'));

      expect(await prune(store)).toBe(1); // the muted one: nothing sends it later
      expect(await stateOf(store, muted)).toBe('gone');
      for (const item of grouped) expect(await stateOf(store, item.event.id)).toBe('grouped');
      expect(await store.countByTarget()).toEqual([{ target: 'slack', state: 'grouped', count: 5 }]);

      let listed = -1;
      const build = (_digest: unknown, events: readonly unknown[]) => {
        listed = events.length;
        return { ...makeIngestItem({ receivedAt: T0 + 80_000 }).event, kind: 'switchyard.digest' };
      };
      expect(await store.sendDigest('dig_storm', T0 + 80_000, build)).toBeDefined();
      expect(listed).toBe(5);
      // The switchyard_deliveries gauge: what waits in an open digest, not what a sent one already reported.
      expect(await store.countByTarget()).toEqual([{ target: 'slack', state: 'pending', count: 1 }]);
      expect(await prune(store)).toBe(5); // the digest's own event waits for its pending delivery
      expect(await store.counts()).toEqual({ events: 1, deliveries: 1 });
    });

    it('keeps suppressed events until a later delivery of their key is let through and reports them', async () => {
      const store = await openMigrated();
      const throttle = { by: 'target:slack', key: 'target:slack|db-1', windowMs: 60_000, max: 1 };
      const throttled = (receivedAt: number) => ({
        ...makeIngestItem({ receivedAt, targets: ['slack'] }),
        throttles: [throttle],
      });
      const first = await ingest(store, throttled(T0));
      const suppressed = [await ingest(store, throttled(T0 + 1)), await ingest(store, throttled(T0 + 2))];
      expect(await stateOf(store, suppressed[0] ?? '')).toBe('suppressed');
      await finishDeliveries(store, 'slack', 'delivered', T0 + 10);

      expect(await prune(store)).toBe(1);
      expect(await stateOf(store, first)).toBe('gone');
      for (const id of suppressed) expect(await stateOf(store, id)).toBe('suppressed');

      const next = await ingest(store, throttled(T0 + 120_000));
      expect(await prune(store)).toBe(2);
      const [claimed] = await store.claimDue({ target: 'slack', now: T0 + 120_000, limit: 10, leaseMs: 60_000 });
      expect(claimed).toMatchObject({ event: { id: next }, suppressedCount: 2 });
    });
  });
}
