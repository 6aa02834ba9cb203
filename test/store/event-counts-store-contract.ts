import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';

const MINUTE = 60_000;

/** An event of `kind` and `severity` received at `at`, with a body of its own unless `body` is given. */
function item(at: number, kind: string, severity: string | null, body?: string) {
  const made = makeIngestItem({
    receivedAt: at,
    severity,
    targets: ['slack'],
    ...(body === undefined ? {} : { body }),
  });
  return { ...made, event: { ...made.event, kind } };
}

/** The console's events per minute, counted at ingest (migration 8), backend-agnostic like the other contracts. */
export function describeEventCountsStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Event counts store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    const perMinute = (store: Store, since = 0) => store.eventsPerMinute(since);

    it('counts what was ingested by minute, kind and severity, across groups and without duplicates', async () => {
      const store = await openMigrated();
      await store.ingest([
        item(T0, 'a', 'high', 'one'),
        item(T0 + 59_999, 'a', 'high'),
        item(T0 + 30_000, 'a', null),
        item(T0 + 30_000, 'b', 'high'),
        item(T0 + MINUTE, 'a', 'high'),
        item(T0 + 10, 'a', 'high', 'one'), // a duplicate of the first, in the same group
      ]);
      const again = await store.ingest([item(T0 + 50, 'a', 'high', 'one'), item(T0 + 3 * MINUTE + 1, 'b', 'low')]);
      expect(again.map((r) => r.duplicate)).toEqual([true, false]);
      expect(await perMinute(store)).toEqual([
        { minute: T0, kind: 'a', severity: null, count: 1 },
        { minute: T0, kind: 'a', severity: 'high', count: 2 },
        { minute: T0, kind: 'b', severity: 'high', count: 1 },
        { minute: T0 + MINUTE, kind: 'a', severity: 'high', count: 1 },
        { minute: T0 + 3 * MINUTE, kind: 'b', severity: 'low', count: 1 },
      ]);
      expect(await perMinute(store, T0 + MINUTE + 1)).toEqual([
        { minute: T0 + MINUTE, kind: 'a', severity: 'high', count: 1 },
        { minute: T0 + 3 * MINUTE, kind: 'b', severity: 'low', count: 1 },
      ]);
    });

    it('sums minutes into buckets of whole minutes from the first minute on', async () => {
      const store = await openMigrated();
      await store.ingest([
        item(T0 + 10, 'a', 'high'),
        item(T0 + 2 * MINUTE + 5, 'a', 'high'),
        item(T0 + 2 * MINUTE + 6, 'a', null),
        item(T0 + 3 * MINUTE, 'a', 'high'),
        item(T0 + 7 * MINUTE, 'b', 'low'),
      ]);
      expect(await store.eventsPerMinute(T0 + 1_000, 3 * MINUTE)).toEqual([
        { minute: T0, kind: 'a', severity: null, count: 1 },
        { minute: T0, kind: 'a', severity: 'high', count: 2 },
        { minute: T0 + 3 * MINUTE, kind: 'a', severity: 'high', count: 1 },
        { minute: T0 + 6 * MINUTE, kind: 'b', severity: 'low', count: 1 },
      ]);
    });

    it('counts nothing of a group whose transaction rolled back', async () => {
      const store = await openMigrated();
      await store.ingest([item(T0, 'a', 'high')]);
      const first = item(T0, 'a', 'high');
      // Same id, another body: not a duplicate, so its insert breaks the primary key and the group rolls back.
      const clash = { ...item(T0, 'a', 'high'), event: { ...item(T0, 'a', 'high').event, id: first.event.id } };
      await expect(store.ingest([first, clash])).rejects.toThrow();
      expect(await perMinute(store)).toEqual([{ minute: T0, kind: 'a', severity: 'high', count: 1 }]);
    });

    it('prunes the counts of whole minutes before the events cutoff, a batch at most its limit', async () => {
      const store = await openMigrated();
      const old = T0 - 2 * DAY_MS;
      await store.ingest([item(old, 'a', 'high'), item(old, 'b', 'high'), item(old, 'c', 'high')]);
      await store.ingest([item(T0 + 1, 'a', 'high')]);
      const cutoffs = { eventsBefore: T0 + 30_000, deadBefore: T0 + 30_000 };
      await store.pruneBatch({ ...cutoffs, limit: 2 });
      expect(await perMinute(store)).toEqual([
        { minute: old, kind: 'c', severity: 'high', count: 1 },
        { minute: T0, kind: 'a', severity: 'high', count: 1 },
      ]);
      await store.pruneBatch({ ...cutoffs, limit: 2 });
      // The minute T0 is not over at the cutoff: its count stays.
      expect(await perMinute(store)).toEqual([{ minute: T0, kind: 'a', severity: 'high', count: 1 }]);
    });
  });
}
