import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';

/** A fresh, empty journal of one backend (a temp SQLite file, a PostgreSQL schema, ...). */
export interface TestJournal {
  /** A store on this journal, not yet migrated; may be called again after `close()` to reopen it. */
  open(): Promise<Store>;
  /** Removes the journal; called after each test, after every store opened on it was closed. */
  dispose(): Promise<void>;
}

/**
 * The behaviour every journal backend must show, written only against the `Store` interface so that the
 * same cases run on SQLite and PostgreSQL. `createJournal` is called once per test.
 */
export function describeStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Store contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function journal(): Promise<TestJournal> {
      const created = await createJournal();
      cleanups.push(() => created.dispose());
      return created;
    }
    async function openMigrated(on?: TestJournal): Promise<Store> {
      const store = await (on ?? (await journal())).open();
      cleanups.push(() => store.close());
      await store.migrate();
      return store;
    }

    it('stores the event with the exact bytes received and one pending delivery per target', async () => {
      const store = await openMigrated();
      // Not valid UTF-8 and with odd whitespace: only a byte-exact journal returns this unchanged.
      const body = Buffer.concat([
        Buffer.from('{ "event" :\t"x",\r\n'),
        Buffer.from([0xff, 0x00, 0xc3]),
        Buffer.from('}'),
      ]);
      const item = makeIngestItem({ body, targets: ['soc-slack', 'oncall-mail'] });

      const [result] = await store.ingest([item]);

      expect(result).toEqual({ duplicate: false, eventId: item.event.id, deliveries: 2 });
      const stored = await store.getEvent(item.event.id);
      expect(stored).toEqual({ ...item.event, body: expect.any(Buffer) });
      expect(Buffer.compare(stored?.body ?? Buffer.alloc(0), body)).toBe(0);
      const deliveries = await store.listDeliveries(item.event.id);
      expect(deliveries.map((d) => d.target)).toEqual(['oncall-mail', 'soc-slack']);
      for (const delivery of deliveries) {
        expect(delivery).toEqual({
          id: expect.stringMatching(/^dlv_[1-9][0-9]*$/),
          eventId: item.event.id,
          target: delivery.target,
          state: 'pending',
          attempts: 0,
          nextAttemptAt: item.event.receivedAt,
          lastError: null,
          heldBy: null,
          createdAt: item.event.receivedAt,
          updatedAt: item.event.receivedAt,
        });
      }
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(2);
      expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });
    });

    it('stores an event without severity, and one routed nowhere, with no deliveries', async () => {
      const store = await openMigrated();
      const item = makeIngestItem({ severity: null, targets: [] });

      expect(await store.ingest([item])).toEqual([{ duplicate: false, eventId: item.event.id, deliveries: 0 }]);
      expect((await store.getEvent(item.event.id))?.severity).toBeNull();
      expect(await store.counts()).toEqual({ events: 1, deliveries: 0 });
    });

    it('answers a duplicate within the window with the original id and writes nothing', async () => {
      const store = await openMigrated();
      const first = makeIngestItem({ body: '{"same":1}' });
      await store.ingest([first]);
      const again = makeIngestItem({ body: '{"same":1}', receivedAt: T0 + DAY_MS });

      expect(await store.ingest([again])).toEqual([{ duplicate: true, eventId: first.event.id, deliveries: 0 }]);
      expect(await store.getEvent(again.event.id)).toBeUndefined();
      expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });
    });

    it('detects a duplicate inside the same group, and maps results to items in order', async () => {
      const store = await openMigrated();
      const a = makeIngestItem({ body: '{"a":1}' });
      const b = makeIngestItem({ body: '{"b":1}', targets: ['soc-slack'] });
      const aAgain = makeIngestItem({ body: '{"a":1}' });

      expect(await store.ingest([a, b, aAgain])).toEqual([
        { duplicate: false, eventId: a.event.id, deliveries: 2 },
        { duplicate: false, eventId: b.event.id, deliveries: 1 },
        { duplicate: true, eventId: a.event.id, deliveries: 0 },
      ]);
      expect(await store.counts()).toEqual({ events: 2, deliveries: 3 });
    });

    it('treats the window as inclusive at dedupeSince and stores a new event once it has passed', async () => {
      const store = await openMigrated();
      const first = makeIngestItem({ body: '{"same":1}' });
      await store.ingest([first]);
      const atEdge = makeIngestItem({ body: '{"same":1}', receivedAt: T0 + 7 * DAY_MS });
      const after = makeIngestItem({ body: '{"same":1}', receivedAt: T0 + 7 * DAY_MS + 1 });

      expect((await store.ingest([atEdge]))[0]).toMatchObject({ duplicate: true, eventId: first.event.id });
      expect((await store.ingest([after]))[0]).toEqual({ duplicate: false, eventId: after.event.id, deliveries: 2 });
      // The newer copy is now the original for later duplicates.
      const later = makeIngestItem({ body: '{"same":1}', receivedAt: T0 + 10 * DAY_MS });
      expect((await store.ingest([later]))[0]).toMatchObject({ duplicate: true, eventId: after.event.id });
      expect(await store.counts()).toEqual({ events: 2, deliveries: 4 });
    });

    it('dedupes per source: the same body from another source is a new event', async () => {
      const store = await openMigrated();
      const fromMonitor = makeIngestItem({ source: 'monitor', body: '{"same":1}' });
      const fromEdr = makeIngestItem({ source: 'edr', body: '{"same":1}' });

      const results = await store.ingest([fromMonitor, fromEdr]);

      expect(results.map((r) => r.duplicate)).toEqual([false, false]);
      expect(await store.counts()).toEqual({ events: 2, deliveries: 4 });
    });

    it('rejects a group with a target listed twice and stores nothing of that group', async () => {
      const store = await openMigrated();
      const good = makeIngestItem();
      const bad = makeIngestItem({ targets: ['soc-slack', 'soc-slack'] });

      await expect(store.ingest([good, bad])).rejects.toThrow();

      expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
      expect(await store.getEvent(good.event.id)).toBeUndefined();
      // The journal still takes the next group.
      expect((await store.ingest([good]))[0]).toMatchObject({ duplicate: false });
    });

    it('answers unknown ids with nothing, and an empty group with no results', async () => {
      const store = await openMigrated();
      expect(await store.getEvent('evt_unknown')).toBeUndefined();
      expect(await store.listDeliveries('evt_unknown')).toEqual([]);
      expect(await store.ingest([])).toEqual([]);
      expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
    });

    it('answers ping() on a migrated journal', async () => {
      const store = await openMigrated();
      await expect(store.ping()).resolves.toBeUndefined();
      await expect(store.ping({ write: true })).resolves.toBeUndefined();
      expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
    });

    it('refuses a journal that was never migrated, and use after close(), which is idempotent', async () => {
      const store = await (await journal()).open();
      cleanups.push(() => store.close());
      await expect(store.ingest([makeIngestItem()])).rejects.toMatchObject({ code: 'journal_not_migrated' });
      await expect(store.counts()).rejects.toMatchObject({ code: 'journal_not_migrated' });
      await store.migrate();
      expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
      await store.close();
      await store.close();
      await expect(store.counts()).rejects.toMatchObject({ code: 'journal_closed' });
      await expect(store.ingest([makeIngestItem()])).rejects.toMatchObject({ code: 'journal_closed' });
      await expect(store.migrate()).rejects.toMatchObject({ code: 'journal_closed' });
    });

    it('migrates idempotently and keeps data across close and reopen, readable without migrating again', async () => {
      const on = await journal();
      const store = await openMigrated(on);
      await store.migrate();
      const item = makeIngestItem({ body: '{"kept":1}' });
      await store.ingest([item]);
      await store.close();

      // A store on a journal that is already current reads without migrating (tools, a second process).
      const reader = await on.open();
      cleanups.push(() => reader.close());
      expect(await reader.counts()).toEqual({ events: 1, deliveries: 2 });
      await reader.close();
      const reopened = await openMigrated(on);
      await reopened.migrate();

      expect(await reopened.getEvent(item.event.id)).toEqual(item.event);
      expect(await reopened.listDeliveries(item.event.id)).toHaveLength(2);
      expect(await reopened.counts()).toEqual({ events: 1, deliveries: 2 });
      const again = makeIngestItem({ body: '{"kept":1}', receivedAt: T0 + 1 });
      expect((await reopened.ingest([again]))[0]).toMatchObject({ duplicate: true, eventId: item.event.id });
    });
  });
}
