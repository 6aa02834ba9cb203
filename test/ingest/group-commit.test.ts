import { afterEach, describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../src/ingest/group-commit.js';
import type { IngestItem, Store } from '../../src/store/store.js';
import { makeIngestItem } from '../store/make-ingest-item.js';
import { tempSqliteJournal } from '../store/temp-sqlite-journal.js';

/**
 * A real SQLite store that records the size of every group it commits. While `hold()` is in force, commits
 * wait for its release, as an asynchronous store (PostgreSQL) would wait for the network, deterministically.
 */
function recording(inner: Store) {
  const groups: number[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  let held: Promise<void> | undefined;
  const store: Store = {
    ...inner,
    async ingest(items: readonly IngestItem[]) {
      groups.push(items.length);
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      try {
        await held;
        return await inner.ingest(items);
      } finally {
        concurrent -= 1;
      }
    },
  };
  const hold = (): (() => void) => {
    let release = (): void => undefined;
    held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      held = undefined;
      release();
    };
  };
  return { store, groups, hold, maxConcurrent: () => maxConcurrent };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createGroupCommit', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function sqliteStore(): Promise<Store> {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    const store = await journal.open();
    cleanups.push(() => store.close());
    await store.migrate();
    return store;
  }

  it('commits everything submitted in one turn of the event loop in one transaction, each caller its own result', async () => {
    const inner = await sqliteStore();
    const { store, groups } = recording(inner);
    const commit = createGroupCommit((items: readonly IngestItem[]) => store.ingest(items));
    const items = Array.from({ length: 100 }, (_, i) => makeIngestItem({ targets: i % 2 === 0 ? ['a'] : ['a', 'b'] }));

    const results = await Promise.all(items.map((item) => commit.submit(item)));

    expect(groups).toEqual([100]);
    results.forEach((result, i) => {
      expect(result).toEqual({ duplicate: false, eventId: items[i]?.event.id, deliveries: i % 2 === 0 ? 1 : 2 });
    });
    expect(await inner.counts()).toEqual({ events: 100, deliveries: 150 });
  });

  it('answers only after the commit, from the next turn of the event loop', async () => {
    const inner = await sqliteStore();
    const commit = createGroupCommit((items: readonly IngestItem[]) => inner.ingest(items));
    const item = makeIngestItem({ body: '{"once":1}' });

    const pending = commit.submit(item);
    expect(await inner.counts()).toEqual({ events: 0, deliveries: 0 });
    await expect(pending).resolves.toMatchObject({ duplicate: false, eventId: item.event.id });
    expect(await inner.counts()).toEqual({ events: 1, deliveries: 2 });
    const again = await commit.submit(makeIngestItem({ body: '{"once":1}' }));
    expect(again).toEqual({ duplicate: true, eventId: item.event.id, deliveries: 0 });
  });

  it('rejects every caller of a failing group with the same error, stores nothing of it, and goes on', async () => {
    const inner = await sqliteStore();
    const { store, groups } = recording(inner);
    const commit = createGroupCommit((items: readonly IngestItem[]) => store.ingest(items));
    // A target listed twice breaks the UNIQUE(event_id, target) constraint: a real failing transaction.
    const failing = [makeIngestItem(), makeIngestItem({ targets: ['a', 'a'] }), makeIngestItem()];

    const outcomes = await Promise.allSettled(failing.map((item) => commit.submit(item)));

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const reasons = outcomes.map((o) => (o as PromiseRejectedResult).reason as unknown);
    expect(reasons[0]).toBeInstanceOf(Error);
    expect(new Set(reasons).size).toBe(1);
    expect(await inner.counts()).toEqual({ events: 0, deliveries: 0 });

    const next = await Promise.all([makeIngestItem(), makeIngestItem()].map((item) => commit.submit(item)));
    expect(next.map((r) => r.duplicate)).toEqual([false, false]);
    expect(groups).toEqual([3, 2]);
    expect(await inner.counts()).toEqual({ events: 2, deliveries: 4 });
  });

  it('never puts more than maxBatch items in one transaction', async () => {
    const inner = await sqliteStore();
    const { store, groups } = recording(inner);
    const commit = createGroupCommit((items: readonly IngestItem[]) => store.ingest(items), { maxBatch: 10 });
    const items = Array.from({ length: 25 }, () => makeIngestItem());

    const results = await Promise.all(items.map((item) => commit.submit(item)));

    expect(groups).toEqual([10, 10, 5]);
    expect(results.map((r) => r.eventId)).toEqual(items.map((item) => item.event.id));
  });

  it('never overlaps groups on a slow asynchronous store; items keep gathering for the next group', async () => {
    const inner = await sqliteStore();
    const { store, groups, hold, maxConcurrent } = recording(inner);
    const commit = createGroupCommit((items: readonly IngestItem[]) => store.ingest(items), { maxBatch: 4 });
    const release = hold();
    const submitted: Promise<unknown>[] = [];
    const submit = (n: number) => {
      for (let i = 0; i < n; i++) submitted.push(commit.submit(makeIngestItem()));
    };

    submit(3);
    await nextTurn();
    expect(groups).toEqual([3]);
    submit(2);
    await nextTurn();
    submit(5);
    await nextTurn();
    expect(groups).toEqual([3]); // the first group is still in flight: nothing else started
    release();
    await Promise.all(submitted);

    expect(maxConcurrent()).toBe(1);
    expect(groups).toEqual([3, 4, 3]); // 7 gathered meanwhile, cut at maxBatch
    expect(await inner.counts()).toEqual({ events: 10, deliveries: 20 });
  });

  it('drain() waits until everything submitted so far has committed or failed, and does not reject', async () => {
    const inner = await sqliteStore();
    const { store, hold } = recording(inner);
    const commit = createGroupCommit((items: readonly IngestItem[]) => store.ingest(items));
    await commit.drain(); // nothing submitted: resolves at once
    const release = hold();
    const settled: string[] = [];
    commit.submit(makeIngestItem()).then(() => settled.push('committed'));
    await nextTurn();
    // The next group (waiting behind the first) fails as a whole.
    const failing = [makeIngestItem(), makeIngestItem({ targets: ['a', 'a'] })];
    for (const item of failing) commit.submit(item).catch(() => settled.push('failed'));

    const drained = commit.drain().then(() => settled.push('drained'));
    await nextTurn();
    expect(settled).toEqual([]);
    release();
    await drained;

    expect(settled).toEqual(['committed', 'failed', 'failed', 'drained']);
    expect(await inner.counts()).toEqual({ events: 1, deliveries: 2 });
  });

  it('rejects a maxBatch that is not a positive integer', async () => {
    const inner = await sqliteStore();
    expect(() => createGroupCommit((items: readonly IngestItem[]) => inner.ingest(items), { maxBatch: 0 })).toThrow(
      RangeError,
    );
    expect(() => createGroupCommit((items: readonly IngestItem[]) => inner.ingest(items), { maxBatch: 1.5 })).toThrow(
      RangeError,
    );
  });
});
