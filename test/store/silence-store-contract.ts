import { describe, expect, it } from 'vitest';
import type { StoredSilence } from '../../src/store/stored-silence.js';
import { migratedStores } from './migrated-stores.js';
import { T0, makeIngestItem } from './make-ingest-item.js';
import type { TestJournal } from './store-contract.js';

const HOUR = 3_600_000;

export function silence(overrides: Partial<StoredSilence> = {}): StoredSilence {
  return {
    id: 'sil_1',
    matchers: { event: 'agent.*', where: [{ 'data.host': 'db-1' }] },
    startsAt: T0,
    endsAt: T0 + HOUR,
    comment: 'patching db-1',
    createdBy: 'alice',
    onExpiry: 'drop',
    createdAt: T0,
    updatedAt: T0,
    releasedAt: null,
    ...overrides,
  };
}

/** Held deliveries and silences (issue 12), backend-agnostic like the other contracts. */
export function describeSilenceStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Silence store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);

    it('creates held deliveries in their state with what held them, and never hands them to the engine', async () => {
      const store = await openMigrated();
      const item = {
        ...makeIngestItem({ targets: ['soc-slack', 'tickets'] }),
        holds: [{ state: 'silenced' as const, by: 'sil_1' }, null],
      };
      await store.ingest([item]);
      const deliveries = await store.listDeliveries(item.event.id);
      expect(deliveries.map((d) => [d.target, d.state, d.heldBy])).toEqual([
        ['soc-slack', 'silenced', 'sil_1'],
        ['tickets', 'pending', null],
      ]);
      expect(await store.claimDue({ target: 'soc-slack', now: T0 + HOUR, limit: 10, leaseMs: 1000 })).toEqual([]);
      expect(await store.nextDueAt('soc-slack')).toBeUndefined();
      const silenced = await store.findDeliveries({ state: 'silenced', heldBy: 'sil_1' });
      expect(silenced.map((d) => d.target)).toEqual(['soc-slack']);
      expect(await store.findDeliveries({ heldBy: 'sil_2' })).toEqual([]);
      const counts = await store.countByTarget();
      expect(counts).toContainEqual({ target: 'soc-slack', state: 'silenced', count: 1 });
    });

    it('stores, finds, updates and expires silences', async () => {
      const store = await openMigrated();
      await store.createSilence(silence());
      await store.createSilence(silence({ id: 'sil_2', startsAt: T0 + 2 * HOUR, endsAt: T0 + 3 * HOUR }));
      expect(await store.getSilence('sil_1')).toEqual(silence());
      expect(await store.getSilence('sil_9')).toBeUndefined();
      expect((await store.findSilences({ activeAt: T0 + 1 })).map((s) => s.id)).toEqual(['sil_1']);
      expect((await store.findSilences({ activeAt: T0 + HOUR })).map((s) => s.id)).toEqual([]);
      expect((await store.findSilences({ notEndedAt: T0 + 1 })).map((s) => s.id)).toEqual(['sil_2', 'sil_1']);
      expect((await store.findSilences({})).map((s) => s.id)).toEqual(['sil_2', 'sil_1']);

      const expired = await store.updateSilence('sil_1', { endsAt: T0 + 5 }, T0 + 5);
      expect(expired).toMatchObject({ endsAt: T0 + 5, updatedAt: T0 + 5, comment: 'patching db-1' });
      expect((await store.findSilences({ activeAt: T0 + 6 })).map((s) => s.id)).toEqual([]);
      expect(await store.updateSilence('sil_9', { comment: 'x' }, T0)).toBeUndefined();
    });

    it('releases an ended silence once: its chosen deliveries are due again, the rest stay held', async () => {
      const store = await openMigrated();
      await store.createSilence(silence({ onExpiry: 'deliver_unresolved' }));
      const items = [0, 1].map(() => ({
        ...makeIngestItem({ targets: ['soc-slack'] }),
        holds: [{ state: 'silenced' as const, by: 'sil_1' }],
      }));
      await store.ingest(items);
      const [first, second] = await store.findDeliveries({ heldBy: 'sil_1' });
      const now = T0 + 2 * HOUR;
      expect(await store.releaseSilence('sil_1', [first!.id], now)).toBe(1);
      expect(await store.releaseSilence('sil_1', [second!.id], now)).toBeUndefined();
      expect((await store.getSilence('sil_1'))?.releasedAt).toBe(now);
      expect((await store.getDelivery(first!.id))?.state).toBe('pending');
      expect((await store.getDelivery(second!.id))?.state).toBe('silenced');
      const claimed = await store.claimDue({ target: 'soc-slack', now, limit: 10, leaseMs: 1000 });
      expect(claimed.map((c) => [c.delivery.id, c.retryFrom, c.scheduleAttempts])).toEqual([[first!.id, now, 0]]);
    });

    it('throttles per key inside the ingest transaction, and tells the next one let through what it held back', async () => {
      const store = await openMigrated();
      const minute = 60_000;
      const throttle = (host: string) => ({
        by: 'route:storm',
        key: `route:storm|${host}`,
        windowMs: 10 * minute,
        max: 2,
      });
      const item = (host: string, at: number) => ({
        ...makeIngestItem({ targets: ['soc-slack'], receivedAt: at }),
        throttles: [throttle(host)],
      });
      // One group with five for db-1 (two let through, three suppressed) and one for db-2.
      const results = await store.ingest(
        [0, 1, 2, 3, 4].map((i) => item('db-1', T0 + i)).concat([item('db-2', T0 + 5)]),
      );
      // What the held deliveries metric counts: the throttle decided in the journal.
      expect(results.map((r) => (r.duplicate ? 'duplicate' : (r.suppressed ?? 0)))).toEqual([0, 0, 1, 1, 1, 0]);
      const states = async () => (await store.findDeliveries({ limit: 100 })).map((d) => [d.state, d.heldBy]);
      expect(await states()).toEqual([
        ['pending', null],
        ['pending', null],
        ['suppressed', 'route:storm'],
        ['suppressed', 'route:storm'],
        ['suppressed', 'route:storm'],
        ['pending', null],
      ]);
      // Two let through within the last 10 minutes: suppressed; once both are older, let through with the count.
      await store.ingest([item('db-1', T0 + 5 * minute)]);
      await store.ingest([item('db-1', T0 + 10 * minute + 2)]);
      expect((await states()).slice(6)).toEqual([
        ['suppressed', 'route:storm'],
        ['pending', null],
      ]);
      const claimed = await store.claimDue({ target: 'soc-slack', now: T0 + HOUR, limit: 100, leaseMs: 1000 });
      expect(claimed.map((c) => c.suppressedCount)).toEqual([0, 0, 0, 4]);
    });

    it('throttles as the journal says after a rolled-back group and a reopen', async () => {
      const journal = await createJournal();
      let store = await journal.open();
      try {
        await store.migrate();
        const throttle = { by: 'route:storm', key: 'route:storm|soc-slack|db-1', windowMs: HOUR, max: 1 };
        const item = (at: number) => ({
          ...makeIngestItem({ targets: ['soc-slack'], receivedAt: at }),
          throttles: [throttle],
        });
        const states = async () => (await store.findDeliveries({ limit: 100 })).map((d) => d.state);
        // The group's throttled delivery is decided, then its last item fails (an event id already there): the
        // whole group rolls back, so the next one is still the first of its window.
        const first = item(T0);
        await store.ingest([item(T0 - 2 * HOUR)]);
        const clash = item(T0 + 1);
        await expect(
          store.ingest([first, { ...clash, event: { ...clash.event, id: first.event.id } }]),
        ).rejects.toThrow();
        await store.ingest([item(T0 + 2), item(T0 + 3)]);
        expect(await states()).toEqual(['pending', 'pending', 'suppressed']);
        await store.ingest([item(T0 + 5)]);
        await store.ingest([item(T0 + HOUR + 10)]);
        // A reopened store (a restart) reads what the journal holds: the window is still full.
        await store.close();
        store = await journal.open();
        await store.ingest([item(T0 + HOUR + 11)]);
        await store.ingest([item(T0 + 2 * HOUR + 20)]);
        expect((await states()).slice(2)).toEqual(['suppressed', 'suppressed', 'pending', 'suppressed', 'pending']);
        const claimed = await store.claimDue({ target: 'soc-slack', now: T0 + 3 * HOUR, limit: 100, leaseMs: 1000 });
        expect(claimed.map((c) => c.suppressedCount)).toEqual([0, 0, 2, 1]);
      } finally {
        await store.close();
        await journal.dispose();
      }
    });

    it('watches sources: the latest verified event wins, rejections count from it, silent and recovered once', async () => {
      const store = await openMigrated();
      const minute = 60_000;
      await store.recordSourceSightings([{ source: 'monitor', lastEventAt: null, rejected: 0 }], T0);
      expect(await store.markSourceSilent('monitor', T0 - 1, T0 + minute)).toBeUndefined(); // its clock starts at T0
      await store.recordSourceSightings(
        [
          { source: 'monitor', lastEventAt: T0 + minute, rejected: 2 },
          { source: 'edr', lastEventAt: null, rejected: 5 },
        ],
        T0 + minute,
      );
      await store.recordSourceSightings([{ source: 'monitor', lastEventAt: T0 + 30_000, rejected: 3 }], T0 + minute);
      const cutoff = T0 + 16 * minute;
      const silent = await store.markSourceSilent('monitor', cutoff, T0 + 17 * minute);
      expect(silent).toEqual({ lastEventAt: T0 + minute, rejected: 5, raisedAt: T0 + 17 * minute });
      expect(await store.markSourceSilent('monitor', cutoff, T0 + 17 * minute)).toBeUndefined(); // once
      expect(await store.markSourceSilent('edr', T0, T0 + 17 * minute)).toBeUndefined(); // its clock started later
      expect(await store.markSourceRecovered('monitor')).toBeUndefined(); // nothing new yet
      await store.recordSourceSightings(
        [{ source: 'monitor', lastEventAt: T0 + 18 * minute, rejected: 0 }],
        T0 + 18 * minute,
      );
      expect(await store.markSourceRecovered('monitor')).toEqual({
        lastEventAt: T0 + 18 * minute,
        rejected: 0,
        raisedAt: T0 + 17 * minute,
      });
      expect(await store.markSourceRecovered('monitor')).toBeUndefined();
    });

    it('collects grouped deliveries into one open digest per target and key, and sends a due digest once', async () => {
      const store = await openMigrated();
      const group = (key: string, n: number) => ({
        route: 'storm',
        key: `storm|${key}`,
        waitMs: 30_000,
        intervalMs: 300_000,
        maxEvents: 2,
        digestId: `dig_${key}_${n}`,
      });
      const items = [0, 1, 2].map((n) => ({
        ...makeIngestItem({ targets: ['soc-slack'], receivedAt: T0 + n }),
        groups: [group('a', n)],
      }));
      items.push({ ...makeIngestItem({ targets: ['soc-slack'], receivedAt: T0 + 5 }), groups: [group('b', 0)] });
      await store.ingest(items);
      const grouped = await store.findDeliveries({ state: 'grouped', limit: 10 });
      expect(grouped.map((d) => d.heldBy)).toEqual(['dig_a_0', 'dig_a_0', 'dig_a_0', 'dig_b_0']);
      expect(await store.findDueDigests(T0 + 29_999, 10)).toEqual([]);
      expect(await store.findDueDigests(T0 + 30_005, 10)).toEqual(['dig_a_0', 'dig_b_0']);

      let seen: { count: number; events: string[] } | undefined;
      const build = (digest: { count: number; id: string }, events: readonly { id: string }[]) => {
        seen = { count: digest.count, events: events.map((e) => e.id) };
        return {
          ...makeIngestItem({ receivedAt: T0 + 40_000 }).event,
          kind: 'switchyard.digest',
          source: 'switchyard',
          title: '3 events grouped by storm: a',
        };
      };
      const now = T0 + 40_000;
      const sent = await store.sendDigest('dig_a_0', now, build);
      expect(sent).toMatch(/^dlv_/);
      expect(seen).toEqual({ count: 3, events: [items[0]!.event.id, items[1]!.event.id] }); // max_events: 2
      expect(await store.sendDigest('dig_a_0', now, build)).toBeUndefined(); // once
      const delivery = await store.getDelivery(sent!);
      expect(delivery).toMatchObject({ target: 'soc-slack', state: 'pending' });
      expect((await store.getEvent(delivery!.eventId))?.kind).toBe('switchyard.digest');
      // Listed and searched by its title, as an ingested event.
      const listed = await store.findEvents({ kind: 'switchyard.digest', titleContains: 'grouped by storm' });
      expect(listed.map((event) => event.title)).toEqual(['3 events grouped by storm: a']);
      // The digest is an event of the journal: the console's events per minute count it (migration 8).
      expect((await store.eventsPerMinute(T0)).map((row) => [row.kind, row.count])).toEqual([
        ['incident.created', 4],
        ['switchyard.digest', 1],
      ]);
      expect(await store.findDueDigests(now, 10)).toEqual(['dig_b_0']);

      // The next event of key a opens a new digest, due no sooner than interval after the last one was sent.
      await store.ingest([
        { ...makeIngestItem({ targets: ['soc-slack'], receivedAt: now + 1 }), groups: [group('a', 9)] },
      ]);
      expect(await store.findDueDigests(now + 31_001, 10)).toEqual(['dig_b_0']);
      expect(await store.findDueDigests(now + 300_000, 10)).toEqual(['dig_b_0', 'dig_a_9']);
    });

    it('forgets a digest opened by a group that rolled back, and counts every join of a group', async () => {
      const store = await openMigrated();
      const group = (n: number) => ({
        route: 'storm',
        key: 'storm|a',
        waitMs: 30_000,
        intervalMs: 300_000,
        maxEvents: 10,
        digestId: `dig_${n}`,
      });
      const first = { ...makeIngestItem({ targets: ['soc-slack'], receivedAt: T0 }), groups: [group(1)] };
      const clash = makeIngestItem({ targets: ['soc-slack'], receivedAt: T0 + 1 });
      await expect(
        store.ingest([first, { ...clash, event: { ...clash.event, id: first.event.id } }]),
      ).rejects.toThrow();
      const items = [2, 3, 4].map((n) => ({
        ...makeIngestItem({ targets: ['soc-slack'], receivedAt: T0 + n }),
        groups: [group(n)],
      }));
      await store.ingest(items.slice(0, 2));
      await store.ingest(items.slice(2));
      const grouped = await store.findDeliveries({ state: 'grouped', limit: 10 });
      expect(grouped.map((d) => d.heldBy)).toEqual(['dig_2', 'dig_2', 'dig_2']);
      let count: number | undefined;
      const build = (digest: { count: number }) => {
        count = digest.count;
        return { ...makeIngestItem({ receivedAt: T0 + 40_000 }).event, kind: 'switchyard.digest' };
      };
      expect(await store.sendDigest('dig_2', T0 + 40_000, build)).toMatch(/^dlv_/);
      expect(count).toBe(3);
    });
  });
}
