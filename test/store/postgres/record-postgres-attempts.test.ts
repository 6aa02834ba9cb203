import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { recordPostgresAttempts } from '../../../src/store/postgres/record-postgres-attempts.js';
import type { AttemptRecord, Store } from '../../../src/store/store.js';
import { describePostgres } from '../describe-postgres.js';
import { T0, makeIngestItem } from '../make-ingest-item.js';
import { tempPostgresJournal, testDatabaseUrl } from '../temp-postgres-journal.js';

// The usual batch goes as one string with its values written in (record-postgres-attempts.ts): what it stores
// must be what the parameters stored, texts that need escaping and NULLs included.
describePostgres('attempt records written into one round trip', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function claimedStore(count: number): Promise<{ store: Store; claimed: { id: string; token: string }[] }> {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const store = await journal.open();
    cleanups.push(() => store.close());
    await store.migrate();
    await store.ingest(
      Array.from({ length: count }, (_, i) => makeIngestItem({ receivedAt: T0 + i, targets: ['hook'] })),
    );
    const claims = await store.claimDue({ target: 'hook', now: T0 + 100, limit: count, leaseMs: 60_000 });
    return { store, claimed: claims.map((c) => ({ id: c.delivery.id, token: c.claimToken })) };
  }

  it('stores texts with quotes, backslashes and other scripts as sent, and NULL where there is no value', async () => {
    const { store, claimed } = await claimedStore(2);
    const [first, second] = claimed;
    if (first === undefined || second === undefined) throw new Error('two claims expected');
    const detail = `it's a \\ back'slash \\' "quoted" $1 — ünïcödé 🚨`;
    const records: AttemptRecord[] = [
      {
        deliveryId: first.id,
        claimToken: first.token,
        attempt: { startedAt: T0 + 200, durationMs: 7, outcome: 'retry', statusCode: null, detail },
        next: { state: 'pending', nextAttemptAt: T0 + 5_000, lastError: `timeout \\ '${detail}'` },
      },
      {
        deliveryId: second.id,
        claimToken: second.token,
        counted: false,
        attempt: { startedAt: T0 + 201, durationMs: 0, outcome: 'delivered', statusCode: 200, detail: null },
        next: { state: 'delivered', nextAttemptAt: T0 + 201, lastError: null },
      },
    ];
    expect(await store.recordAttempts(records)).toBe(2);

    expect(await store.listAttempts(first.id)).toEqual([
      expect.objectContaining({ number: 1, startedAt: T0 + 200, durationMs: 7, statusCode: null, detail }),
    ]);
    expect(await store.getDelivery(first.id)).toEqual(
      expect.objectContaining({ state: 'pending', attempts: 1, lastError: `timeout \\ '${detail}'` }),
    );
    expect(await store.listAttempts(second.id)).toEqual([
      expect.objectContaining({ number: 1, outcome: 'delivered', statusCode: 200, detail: null }),
    ]);
    expect(await store.getDelivery(second.id)).toEqual(
      expect.objectContaining({ state: 'delivered', attempts: 1, lastError: null }),
    );
  });

  it('skips a record whose claim token no longer matches, and counts only those that went in', async () => {
    const { store, claimed } = await claimedStore(2);
    const [first, second] = claimed;
    if (first === undefined || second === undefined) throw new Error('two claims expected');
    const delivered = (id: string, token: string): AttemptRecord => ({
      deliveryId: id,
      claimToken: token,
      attempt: { startedAt: T0 + 200, durationMs: 5, outcome: 'delivered', statusCode: 200, detail: null },
      next: { state: 'delivered', nextAttemptAt: T0 + 200, lastError: null },
    });
    expect(await store.recordAttempts([delivered(first.id, first.token), delivered(second.id, 'stale')])).toBe(1);
    expect(await store.listAttempts(second.id)).toEqual([]);
    expect(await store.getDelivery(second.id)).toEqual(expect.objectContaining({ state: 'pending', attempts: 0 }));
    // Again: nothing left to record.
    expect(await store.recordAttempts([delivered(first.id, first.token)])).toBe(0);
  });
  // The references of a batch are written by two set-based statements (postgres-references.ts); what they leave
  // must be what writing them one record at a time in order leaves, whatever the mix of keys, merges, clears,
  // retries, stale tokens and deliveries named twice. Random batches (seeded, so a failure repeats) against a
  // model that applies them one by one.
  it('leaves the references that one-by-one records would, for random batches', async () => {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const store = await journal.open();
    cleanups.push(() => store.close());
    await store.migrate();
    const keys = ['a', 'b', 'c', null];
    await store.ingest(
      Array.from({ length: 12 }, (_, i) => ({
        ...makeIngestItem({ receivedAt: T0 + i, targets: ['tickets'] }),
        keys: [keys[i % keys.length] ?? null],
      })),
    );
    const deliveries = await journal.sql<{ id: string; key: string | null }>(
      'SELECT id, correlation_key AS key FROM deliveries ORDER BY id',
    );
    const pool = new pg.Pool({
      connectionString: testDatabaseUrl,
      options: `-c search_path=${journal.schema}`,
      max: 1,
    });
    cleanups.push(() => pool.end());
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n); // the high bits: an LCG's low bits repeat with short periods
    };
    const model = new Map<string, { values: Record<string, string>; updatedAt: number }>();
    for (let trial = 0; trial < 40; trial += 1) {
      await journal.sql(`UPDATE deliveries SET state = 'pending', claim_token = 'tok'`);
      const claimed = new Map(deliveries.map((d) => [Number(d.id), 'tok' as string | null]));
      const records: AttemptRecord[] = Array.from({ length: 1 + random(10) }, (_, i) => {
        const row = deliveries[random(deliveries.length)] ?? deliveries[0];
        const at = T0 + trial * 100 + i;
        const pick = random(5);
        const references =
          pick === 0
            ? { clear: true as const }
            : pick === 4
              ? undefined
              : {
                  merge: Object.fromEntries(
                    ['ticket', 'comment', 'n'].filter(() => random(2) === 0).map((n) => [n, `${trial}-${i}`]),
                  ),
                };
        const state = random(4) === 0 ? ('pending' as const) : ('delivered' as const);
        return {
          deliveryId: `dlv_${row?.id}`,
          claimToken: random(6) === 0 ? 'stale' : 'tok',
          attempt: {
            startedAt: at,
            durationMs: 1,
            outcome: state === 'pending' ? 'retry' : 'delivered',
            statusCode: 200,
            detail: null,
          },
          next: { state, nextAttemptAt: at, lastError: null },
          ...(references === undefined ? {} : { references: random(3) === 0 ? { merge: {} } : references }),
        };
      });
      let applied = 0;
      for (const record of records) {
        const id = Number(record.deliveryId.slice(4));
        if (claimed.get(id) !== record.claimToken) continue;
        claimed.set(id, null);
        applied += 1;
        const key = deliveries.find((d) => Number(d.id) === id)?.key;
        if (key === null || key === undefined || record.next.state !== 'delivered' || !record.references) continue;
        if ('clear' in record.references) model.delete(key);
        else {
          const values = { ...model.get(key)?.values, ...record.references.merge };
          model.set(key, { values, updatedAt: record.attempt.startedAt + 1 });
        }
      }
      expect(await recordPostgresAttempts(pool, records)).toBe(applied);
      const stored = await journal.sql<{ key: string; values: Record<string, string>; updatedAt: string }>(
        'SELECT key, ref_values AS values, updated_at AS "updatedAt" FROM key_references ORDER BY key',
      );
      const expected = [...model].sort(([x], [y]) => x.localeCompare(y));
      expect(
        stored.map((r) => [r.key, r.values, Number(r.updatedAt)]),
        `trial ${trial}`,
      ).toEqual(expected.map(([key, v]) => [key, v.values, v.updatedAt]));
    }
  });
});
