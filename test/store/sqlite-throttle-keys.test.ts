import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';
import { finishDeliveries } from './retention-store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('SQLite throttle keys', () => {
  it('writes a key with only the times still in its window, and prunes it with old events', async () => {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    const store = await journal.open();
    cleanups.push(() => store.close());
    await store.migrate();
    const throttle = { by: 'target:chat', key: 'target:chat|db-1', windowMs: 1_000, max: 2 };
    const item = (at: number) => ({ ...makeIngestItem({ targets: ['chat'], receivedAt: at }), throttles: [throttle] });
    await store.ingest([0, 10, 20, 1_500, 1_600].map((at) => item(T0 + at)));
    const db = new Database(journal.path, { readonly: true });
    const rows = () => db.prepare('SELECT key, sent_at AS sentAt, suppressed FROM throttle_keys').all();
    try {
      // 0 and 10 let through, 20 suppressed; 1,500 let through (0 and 10 left the window) with the count, 1,600 too.
      expect(rows()).toEqual([
        { key: 'target:chat|db-1', sentAt: JSON.stringify([T0 + 1_500, T0 + 1_600]), suppressed: 0 },
      ]);
      const pruned = await store.pruneBatch({ eventsBefore: T0 + DAY_MS, deadBefore: T0 + DAY_MS, limit: 100 });
      expect(pruned.events).toBe(1); // the suppressed one is final; the others are still pending
      expect(rows()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('after a crash, reads the throttled deliveries made since the last checkpoint', async () => {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    let store = await journal.open();
    await store.migrate();
    const throttle = { by: 'target:chat', key: 'target:chat|db-1', windowMs: 1_000, max: 1 };
    const item = (at: number) => ({ ...makeIngestItem({ targets: ['chat'], receivedAt: at }), throttles: [throttle] });
    await store.ingest([item(T0)]); // let through; the first group writes a checkpoint
    await store.ingest([item(T0 + 10)]); // suppressed, within the second: only in memory and in deliveries
    await store.ingest([item(T0 + 20)]);
    await store.close(); // nothing is written on close: as after kill -9
    store = await journal.open();
    cleanups.push(() => store.close());
    await store.ingest([item(T0 + 1_001)]);
    await store.ingest([item(T0 + 1_002)]);
    const deliveries = await store.findDeliveries({ limit: 10 });
    expect(deliveries.map((d) => d.state)).toEqual(['pending', 'suppressed', 'suppressed', 'pending', 'suppressed']);
    const claimed = await store.claimDue({ target: 'chat', now: T0 + DAY_MS, limit: 10, leaseMs: 1_000 });
    expect(claimed.map((c) => c.suppressedCount)).toEqual([0, 2]);
  });

  it('keeps a key that still counts suppressed deliveries through retention, so the next message reports them', async () => {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    let store = await journal.open();
    await store.migrate();
    const throttle = { by: 'target:chat', key: 'target:chat|db-1', windowMs: 60_000, max: 1 };
    const item = (at: number) => ({ ...makeIngestItem({ targets: ['chat'], receivedAt: at }), throttles: [throttle] });
    await store.ingest([item(T0)]);
    await store.ingest([item(T0 + 10)]);
    await store.ingest([item(T0 + 6_000)]); // a checkpoint: the key is written with 2 suppressed
    await finishDeliveries(store, 'chat', 'delivered', T0 + 20);
    const pruned = await store.pruneBatch({ eventsBefore: T0 + DAY_MS, deadBefore: T0 + DAY_MS, limit: 100 });
    expect(pruned.events).toBe(1); // the one let through; the suppressed ones wait to be reported
    await store.close(); // the key is read from the journal again
    store = await journal.open();
    cleanups.push(() => store.close());
    await store.ingest([item(T0 + 2 * DAY_MS)]);
    const claimed = await store.claimDue({ target: 'chat', now: T0 + 2 * DAY_MS, limit: 10, leaseMs: 1_000 });
    expect(claimed.map((c) => c.suppressedCount)).toEqual([2]);
  });
});
