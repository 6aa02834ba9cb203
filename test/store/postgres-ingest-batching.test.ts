import { expect, it } from 'vitest';
import type { IngestItem, Store } from '../../src/store/store.js';
import { describePostgres } from './describe-postgres.js';
import { T0, makeIngestItem } from './make-ingest-item.js';
import { postgresJournals } from './postgres-journals.js';
import type { TempPostgresJournal } from './temp-postgres-journal.js';

const HOUR = 60 * 60 * 1000;
const throttle = (max: number) => ({ by: 'route:storm', key: 'route:storm|db-1', windowMs: HOUR, max });

// Ingest writes a group's events, counts and plain deliveries in one statement, and claims read the events in
// the lease statement (issue 11): the edge cases of those multi-row statements, on one or several instances.
describePostgres('PostgreSQL multi-row ingest and claims', () => {
  const { journal, track } = postgresJournals();
  // Each store with a pool of its own, as each Switchyard process would have.
  function instance(on: TempPostgresJournal): Store {
    const store = on.openWith({ pool: { max: 4 } });
    track(() => store.close());
    return store;
  }

  it('writes one group mixing duplicates, held, throttled, grouped and pending deliveries as one-by-one would', async () => {
    const on = await journal();
    const store = instance(on);
    await store.migrate();
    const stored = makeIngestItem({ body: '{"n":"stored"}', receivedAt: T0 });
    await store.ingest([stored]);

    const twice = makeIngestItem({ body: '{"n":"twice"}', receivedAt: T0 + 1, targets: ['slack', 'tickets'] });
    const group: IngestItem[] = [
      { ...twice, holds: [{ state: 'silenced', by: 'sil_1' }, null] },
      makeIngestItem({ body: '{"n":"stored"}', receivedAt: T0 + 2 }),
      { ...makeIngestItem({ body: '{"n":"twice"}', receivedAt: T0 + 3 }), holds: [null, null] },
      ...[4, 5, 6].map((i) => ({
        ...makeIngestItem({ receivedAt: T0 + i, targets: ['slack'] }),
        throttles: [throttle(2)],
      })),
      {
        ...makeIngestItem({ receivedAt: T0 + 7, targets: ['slack', 'tickets'] }),
        groups: [
          {
            digestId: 'dig_1',
            route: 'digest',
            key: 'k',
            maxEvents: 10,
            waitMs: 60_000,
            intervalMs: 0,
          },
          null,
        ],
      },
    ];
    const results = await store.ingest(group);

    expect(results.map((r) => [r.duplicate, r.deliveries])).toEqual([
      [false, 2],
      [true, 0],
      [true, 0],
      [false, 1],
      [false, 1],
      [false, 1],
      [false, 2],
    ]);
    expect(results[1]?.eventId).toBe(stored.event.id);
    expect(results[2]?.eventId).toBe(twice.event.id);
    const states = await on.sql<{ event_id: string; target: string; state: string; held_by: string | null }>(
      'SELECT event_id, target, state, held_by FROM deliveries ORDER BY id',
    );
    const ids = group.map((item) => item.event.id);
    expect(states.map((d) => [ids.indexOf(d.event_id), d.target, d.state, d.held_by])).toEqual([
      [-1, 'soc-slack', 'pending', null],
      [-1, 'oncall-mail', 'pending', null],
      [0, 'slack', 'silenced', 'sil_1'],
      [0, 'tickets', 'pending', null],
      [6, 'tickets', 'pending', null],
      [3, 'slack', 'pending', null],
      [4, 'slack', 'pending', null],
      [5, 'slack', 'suppressed', 'route:storm'],
      [6, 'slack', 'grouped', 'dig_1'],
    ]);
    // Counted once per stored event, duplicates not at all.
    const [counted] = await on.sql<{ n: number }>('SELECT sum(count)::int AS n FROM event_counts');
    expect(counted?.n).toBe(1 + 5);
    // The lease reads each claimed delivery's event in the same statement: byte for byte as stored.
    const claimed = await store.claimDue({ target: 'slack', now: T0 + HOUR, limit: 10, leaseMs: 1000 });
    expect(claimed.map((c) => ids.indexOf(c.event.id))).toEqual([3, 4]);
    for (const { event } of claimed) expect(event).toEqual(await store.getEvent(event.id));
  });

  it('stores nothing of a group whose combined statement fails, and takes the next group afterwards', async () => {
    const on = await journal();
    const store = instance(on);
    await store.migrate();
    const taken = makeIngestItem({ receivedAt: T0 });
    await store.ingest([taken]);
    // Another event with an id that is taken: the events insert fails, so must the counts and deliveries with it.
    const clash = makeIngestItem({ receivedAt: T0 + 1 });
    await expect(
      store.ingest([
        makeIngestItem({ receivedAt: T0 + 1 }),
        { ...clash, event: { ...clash.event, id: taken.event.id } },
      ]),
    ).rejects.toThrow();
    expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });
    const [counted] = await on.sql<{ n: number }>('SELECT sum(count)::int AS n FROM event_counts');
    expect(counted?.n).toBe(1);
    await store.ingest([makeIngestItem({ receivedAt: T0 + 2 })]);
    expect(await store.counts()).toEqual({ events: 2, deliveries: 4 });
  });

  it('lets exactly `max` through a throttle when three instances ingest groups with its key at once', async () => {
    const on = await journal();
    const [a, b, c] = [instance(on), instance(on), instance(on)] as const;
    await a.migrate();
    const groupOf = (from: number) =>
      Array.from({ length: 8 }, (_, i) => ({
        ...makeIngestItem({ receivedAt: T0 + from + i, targets: ['slack'] }),
        throttles: [throttle(5)],
      }));
    await Promise.all([a, b, c, a, b, c].map((store, index) => store.ingest(groupOf(index * 10))));
    const rows = await on.sql<{ state: string; n: number }>(
      'SELECT state, count(*)::int AS n FROM deliveries GROUP BY state ORDER BY state',
    );
    expect(rows).toEqual([
      { state: 'pending', n: 5 },
      { state: 'suppressed', n: 6 * 8 - 5 },
    ]);
  });

  it('claims under the shared pacing for a target whose name needs quoting (its lock goes with the BEGIN)', async () => {
    const on = await journal();
    const store = instance(on);
    await store.migrate();
    const target = 'it\'s \\ "odd"';
    await store.ingest([makeIngestItem({ targets: [target] }), makeIngestItem({ targets: [target] })]);
    const policy = { rateLimit: null, concurrency: 10, circuit: { failures: 5, cooldownMs: 1000 }, maxDelayMs: 1000 };
    const claim = () => store.sharedTargets?.claim({ target, now: T0 + HOUR, limit: 10, leaseMs: 1000, policy });
    // The first claim creates the target's pacing row, the second finds it locked by nothing.
    const first = (await claim())?.claims ?? [];
    expect(first).toHaveLength(2);
    for (const { event } of first) expect(event).toEqual(await store.getEvent(event.id));
    await store.ingest([makeIngestItem({ targets: [target] })]);
    expect((await claim())?.claims).toHaveLength(1);
    const [row] = await on.sql<{ target: string }>('SELECT target FROM target_pacing');
    expect(row?.target).toBe(target);
  });
});
