import { postgresMigrations } from '../../src/store/postgres/migrations/postgres-migrations.js';
import { afterEach, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { describePostgres } from './describe-postgres.js';
import { T0, makeIngestItem } from './make-ingest-item.js';
import { tempPostgresJournal, type TempPostgresJournal } from './temp-postgres-journal.js';

const LEASE = 60_000;

// Several instances on one database: each store here has its own pool, as each Switchyard process would.
describePostgres('PostgreSQL store shared by several instances', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function journal(): Promise<TempPostgresJournal> {
    const created = await tempPostgresJournal();
    cleanups.push(() => created.dispose());
    return created;
  }
  function instance(on: TempPostgresJournal): Store {
    const store = on.openWith({ pool: { max: 4 } });
    cleanups.push(() => store.close());
    return store;
  }

  it('claims each due delivery exactly once when two instances claim at the same time', async () => {
    const on = await journal();
    const [a, b] = [instance(on), instance(on)] as const;
    await a.migrate();
    const items = Array.from({ length: 60 }, (_, i) => makeIngestItem({ receivedAt: T0 + i, targets: ['slack'] }));
    await a.ingest(items);

    const claimed: string[] = [];
    for (let round = 0; round < 20 && claimed.length < items.length; round++) {
      // Four claims in flight per instance, on four connections each.
      const batches = await Promise.all(
        [a, b, a, b, a, b, a, b].map((store) =>
          store.claimDue({ target: 'slack', now: T0 + 100, limit: 3, leaseMs: LEASE }),
        ),
      );
      claimed.push(...batches.flat().map((c) => c.delivery.id));
    }

    expect(claimed).toHaveLength(items.length);
    expect(new Set(claimed).size).toBe(items.length);
    expect(await b.claimDue({ target: 'slack', now: T0 + 100, limit: 100, leaseMs: LEASE })).toEqual([]);
  });

  it("counts the claims another instance committed while this one waited for the target's pacing row", async () => {
    const on = await journal();
    const b = instance(on);
    await b.migrate();
    await b.ingest(Array.from({ length: 8 }, (_, i) => makeIngestItem({ receivedAt: T0 + i, targets: ['hook'] })));
    const shared = b.sharedTargets;
    if (shared === undefined) throw new Error('a PostgreSQL store shares its targets');
    const policy = {
      rateLimit: null,
      concurrency: 3,
      circuit: { failures: 5, cooldownMs: 30_000 },
      maxDelayMs: 60_000,
    };
    // Creates the pacing row; nothing is due yet.
    expect((await shared.claim({ target: 'hook', now: T0 - 1, limit: 8, leaseMs: LEASE, policy })).claims).toEqual([]);

    // "Another instance" holds the row, as its claim does, while b's claim starts and waits for it.
    const other = await on.connect();
    cleanups.push(() => other.end());
    await other.query("BEGIN; SELECT * FROM target_pacing WHERE target = 'hook' FOR UPDATE");
    const waiting = shared.claim({ target: 'hook', now: T0 + 100, limit: 8, leaseMs: LEASE, policy });
    let blocked = false;
    for (let i = 0; i < 500 && !blocked; i++) {
      const { rows } = await other.query(
        'SELECT 1 FROM pg_stat_activity WHERE pg_blocking_pids(pid) @> ARRAY[pg_backend_pid()]',
      );
      blocked = rows.length > 0;
      if (!blocked) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(blocked).toBe(true);
    // ...then claims the target's whole concurrency and commits.
    await other.query(
      `UPDATE deliveries SET claim_token = 'other', next_attempt_at = ${T0 + 100 + LEASE}
       WHERE id IN (SELECT id FROM deliveries WHERE target = 'hook' ORDER BY id LIMIT 3); COMMIT`,
    );

    // b's count of the attempts in flight runs after it got the row, so it sees those 3 and starts none.
    const claimed = await waiting;
    expect(claimed.claims).toEqual([]);
    // Nothing started: whether any is due is not known, so not held back (the engine asks when the next is due).
    expect(claimed.heldBack).toBe(false);
  });

  it('says when what other instances hold, not the backlog, cut a claim short (heldBack)', async () => {
    const on = await journal();
    const [a, b] = [instance(on), instance(on)] as const;
    await a.migrate();
    await a.ingest(Array.from({ length: 5 }, (_, i) => makeIngestItem({ receivedAt: T0 + i, targets: ['hook'] })));
    const [sharedA, sharedB] = [a.sharedTargets, b.sharedTargets];
    if (sharedA === undefined || sharedB === undefined) throw new Error('a PostgreSQL store shares its targets');
    const circuit = { failures: 5, cooldownMs: 30_000 };
    const policy = { rateLimit: null, concurrency: 2, circuit, maxDelayMs: 60_000 };
    const claim = (shared: typeof sharedA, limit: number, paced = policy) =>
      shared.claim({ target: 'hook', now: T0 + 100, limit, leaseMs: LEASE, policy: paced });

    // The concurrency allowed 2 of the 8 asked, and 2 were due: more may be.
    expect(await claim(sharedA, 8)).toMatchObject({ claims: { length: 2 }, heldBack: true });
    // The other instance: nothing allowed while a's claims stand, so nothing known of what is due.
    expect(await claim(sharedB, 8)).toMatchObject({ claims: [], heldBack: false });
    // Asked for no more than allowed: not held back.
    const wider = { ...policy, concurrency: 10 };
    expect(await claim(sharedB, 2, wider)).toMatchObject({ claims: { length: 2 }, heldBack: false });
    // Allowed more than were due: the backlog ran out.
    expect(await claim(sharedB, 8, wider)).toMatchObject({ claims: { length: 1 }, heldBack: false });
    // A rate limit: its one token allowed 1 (held back); then none left, and it says when to look again.
    await a.ingest([1, 2].map((n) => makeIngestItem({ receivedAt: T0 + 10 + n, targets: ['paced'] })));
    const limited = { ...wider, rateLimit: { perSecond: 1, burst: 1 } };
    const paced = () => sharedB.claim({ target: 'paced', now: T0 + 100, limit: 8, leaseMs: LEASE, policy: limited });
    expect(await paced()).toMatchObject({ claims: { length: 1 }, heldBack: true });
    expect(await paced()).toMatchObject({ claims: [], heldBack: false, blockedUntil: T0 + 1_100 });
  });

  it("retakes a dead instance's claims once the lease ends, and ignores its late record", async () => {
    const on = await journal();
    const [a, b] = [instance(on), instance(on)] as const;
    await a.migrate();
    await a.ingest([makeIngestItem({ targets: ['slack'] })]);
    const [lost] = await a.claimDue({ target: 'slack', now: T0, limit: 1, leaseMs: LEASE });
    await a.close(); // the instance dies without recording or releasing

    expect(await b.claimDue({ target: 'slack', now: T0 + LEASE - 1, limit: 1, leaseMs: LEASE })).toEqual([]);
    const [retaken] = await b.claimDue({ target: 'slack', now: T0 + LEASE, limit: 1, leaseMs: LEASE });
    expect(retaken?.delivery.id).toBe(lost?.delivery.id);
    const late = instance(on);
    const attempt = { startedAt: T0 + 1, durationMs: 1, outcome: 'delivered' as const, statusCode: 200, detail: null };
    const next = { state: 'delivered' as const, nextAttemptAt: T0 + 2, lastError: null };
    expect(
      await late.recordAttempts([
        { deliveryId: lost?.delivery.id ?? '', claimToken: lost?.claimToken ?? '', attempt, next },
      ]),
    ).toBe(0);
    expect(
      await b.recordAttempts([
        { deliveryId: retaken?.delivery.id ?? '', claimToken: retaken?.claimToken ?? '', attempt, next },
      ]),
    ).toBe(1);
  });

  it('stores a body sent to two instances at once exactly once, whatever the order of the groups', async () => {
    const on = await journal();
    const [a, b] = [instance(on), instance(on)] as const;
    await a.migrate();
    const bodies = Array.from({ length: 20 }, (_, i) => `{"race":${i}}`);
    const toA = bodies.map((body) => makeIngestItem({ body, targets: ['slack'] }));
    // Reversed on b, so the two groups take overlapping locks from opposite ends.
    const toB = bodies.map((body) => makeIngestItem({ body, targets: ['slack'] })).reverse();

    const [fromA, fromB] = await Promise.all([a.ingest(toA), b.ingest(toB)]);

    expect(await a.counts()).toEqual({ events: 20, deliveries: 20 });
    const resultsB = [...fromB].reverse();
    fromA.forEach((resultA, i) => {
      const resultB = resultsB[i];
      // Exactly one of the two stored it; the other names that one as the original.
      expect([resultA.duplicate, resultB?.duplicate].filter((d) => d === false)).toHaveLength(1);
      expect(resultB?.eventId).toBe(resultA.eventId);
    });
  });

  it('stores one event when many single-item groups with the same body race across instances', async () => {
    const on = await journal();
    const stores = [instance(on), instance(on)];
    await stores[0]?.migrate();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        stores[i % 2]?.ingest([makeIngestItem({ body: '{"same":"racing"}', targets: ['slack'] })]),
      ),
    );
    const stored = results.flatMap((r) => r ?? []).filter((r) => !r.duplicate);
    expect(stored).toHaveLength(1);
    expect(new Set(results.flatMap((r) => r ?? []).map((r) => r.eventId))).toEqual(new Set([stored[0]?.eventId]));
    expect(await stores[1]?.counts()).toEqual({ events: 1, deliveries: 1 });
  });

  it('migrates once when several instances start at once, creating a missing schema', async () => {
    const on = await journal();
    await on.sql(`DROP SCHEMA ${on.schema}`);
    const stores = [instance(on), instance(on), instance(on)];

    await Promise.all(stores.map((store) => store.migrate()));

    expect(await on.sql('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual(
      postgresMigrations.map(({ version, name }) => ({ version, name })),
    );
    for (const store of stores) expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('gives up a migration that would wait on a table another session holds, as journal_unavailable', async () => {
    const on = await journal();
    const store = instance(on);
    await store.migrate();
    // As a journal of version 7 would be: migration 8 locks deliveries.
    await on.sql('DELETE FROM schema_migrations WHERE version >= 8'); // migration 9 is applied again too
    const holder = await on.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN; SELECT 1 FROM deliveries LIMIT 1'); // an operator's open transaction

    await expect(store.migrate()).rejects.toMatchObject({ code: 'journal_unavailable' });
    await holder.query('ROLLBACK');
    await store.migrate();
    expect(await on.sql('SELECT max(version) AS v FROM schema_migrations')).toEqual([{ v: postgresMigrations.length }]);
  });

  it('three instances grouping and sending at once: every event in exactly one digest, each digest sent once', async () => {
    const on = await journal();
    const stores = [instance(on), instance(on), instance(on)] as const;
    await stores[0].migrate();
    let n = 0;
    const group = (key: string) => ({
      route: 'storm',
      key: `storm|${key}`,
      waitMs: 0,
      intervalMs: 0,
      maxEvents: 1000,
      digestId: `dig_${(n += 1)}`,
    });
    const build = (digest: { id: string }, events: readonly { id: string }[]) => ({
      ...makeIngestItem({ receivedAt: T0 }).event,
      kind: 'switchyard.digest',
      source: 'switchyard',
      body: Buffer.from(JSON.stringify({ digest: digest.id, events: events.map((e) => e.id) })),
    });
    const sends: Promise<string | undefined>[] = [];
    const ingests: Promise<unknown>[] = [];
    for (let i = 0; i < 120; i++) {
      const store = stores[i % 3]!;
      const item = { ...makeIngestItem({ receivedAt: T0 + i, targets: ['slack'] }), groups: [group(`k${i % 4}`)] };
      ingests.push(store.ingest([item]));
      // Instances send due digests while others keep joining them.
      if (i % 10 === 0) {
        for (const sender of stores) {
          for (const id of await sender.findDueDigests(T0 + 10_000, 50))
            sends.push(sender.sendDigest(id, T0 + 10_000, build));
        }
      }
    }
    await Promise.all(ingests);
    for (const sender of stores) {
      for (const id of await sender.findDueDigests(T0 + 10_000, 50))
        sends.push(sender.sendDigest(id, T0 + 10_000, build));
    }
    const sent = (await Promise.all(sends)).filter((id): id is string => id !== undefined);
    expect(new Set(sent).size).toBe(sent.length);
    expect(await stores[0].findDueDigests(T0 + 10_000, 100)).toEqual([]);
    const traced = new Map<string, string>();
    for (const id of sent) {
      const delivery = await stores[0].getDelivery(id);
      const body = JSON.parse((await stores[0].getEvent(delivery!.eventId))!.body.toString('utf8')) as {
        events: string[];
      };
      for (const event of body.events) {
        expect(traced.has(event), `${event} in two digests`).toBe(false);
        traced.set(event, id);
      }
    }
    expect(traced.size).toBe(120);
  });
});
