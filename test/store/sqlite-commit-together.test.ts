import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { claimDeliveredRecord } from './claim-delivered-record.js';
import { makeIngestItem } from './make-ingest-item.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describe('SQLite commitTogether (the journal thread batching ingest groups and attempt records)', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('gives each write its own answer in one transaction; a failing one rolls back alone', async () => {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    const store = createSqliteStore({ path: journal.path });
    cleanups.push(() => store.close());
    await store.migrate();
    await store.ingest([makeIngestItem({ targets: ['slack'] })]);
    const record = await claimDeliveredRecord(store, 'slack');
    const first = makeIngestItem({ targets: ['slack'] });
    const twice = { ...makeIngestItem(), targets: ['a', 'a'] }; // a constraint error inside its own group
    const last = makeIngestItem({ targets: ['slack'] });

    const outcomes = await store.commitTogether([
      { method: 'ingest', items: [first] },
      { method: 'recordAttempts', records: [record] },
      { method: 'ingest', items: [twice] },
      { method: 'ingest', items: [last, first] },
    ]);

    expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, true]);
    expect(outcomes[0]).toEqual({ ok: true, value: [{ duplicate: false, eventId: first.event.id, deliveries: 1 }] });
    expect(outcomes[1]).toEqual({ ok: true, value: 1 });
    expect(outcomes[2]).toMatchObject({
      ok: false,
      error: { code: expect.stringMatching(/^SQLITE_CONSTRAINT/) as unknown },
    });
    expect(outcomes[3]).toEqual({
      ok: true,
      value: [
        { duplicate: false, eventId: last.event.id, deliveries: 1 },
        { duplicate: true, eventId: first.event.id, deliveries: 0 },
      ],
    });
    expect(await store.counts()).toEqual({ events: 3, deliveries: 3 });
    expect(await store.getEvent(twice.event.id)).toBeUndefined();
    expect((await store.getDelivery(record.deliveryId))?.state).toBe('delivered');
  });
});
