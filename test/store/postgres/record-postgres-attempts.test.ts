import { afterEach, expect, it } from 'vitest';
import { recordPostgresAttempts } from '../../../src/store/postgres/record-postgres-attempts.js';
import type { AttemptRecord, Store } from '../../../src/store/store.js';
import { describePostgres } from '../describe-postgres.js';
import { T0, makeIngestItem } from '../make-ingest-item.js';
import { seededRandom } from '../seeded-random.js';
import { migratedJournalWithPool } from './migrated-journal-with-pool.js';

// The usual batch goes as one string with its values written in (record-postgres-attempts.ts): what it stores
// must be what the parameters stored, texts that need escaping and NULLs included.
describePostgres('attempt records written into one round trip', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A migrated journal, its store, and a pool of one connection on its schema for recordPostgresAttempts. */
  const migratedJournal = () => migratedJournalWithPool(cleanups);

  async function claimedStore(count: number): Promise<{ store: Store; claimed: { id: string; token: string }[] }> {
    const { store } = await migratedJournal();
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
  // A delivery named twice goes in a later round than the records after it (record-postgres-attempts.ts), but
  // its references must land in the batch's order: here X's stale record is skipped, X's second record goes in
  // the second round, and Y (same key) comes after X in the batch, so Y's write is the last. A review found
  // the per-round order leaving X's instead.
  it("writes a repeated delivery's references in the batch's order, not in its round's", async () => {
    const { store, pool } = await migratedJournal();
    const delivered = (id: string, token: string, at: number, references: AttemptRecord['references']) => ({
      deliveryId: `dlv_${id}`,
      claimToken: token,
      attempt: { startedAt: at, durationMs: 1, outcome: 'delivered' as const, statusCode: 200, detail: null },
      next: { state: 'delivered' as const, nextAttemptAt: at, lastError: null },
      references,
    });
    for (const [second, expected] of [
      [{ merge: { t: '2' } }, [['k', { t: '3' }, T0 + 31]]],
      [{ clear: true as const }, [['k', { t: '3' }, T0 + 31]]],
    ] as const) {
      await store.ingest(
        Array.from({ length: 2 }, () => ({ ...makeIngestItem({ receivedAt: T0, targets: ['tickets'] }), keys: ['k'] })),
      );
      const { rows } = await pool.query<{ id: string }>(
        `UPDATE deliveries SET claim_token = 'tok' WHERE claim_token IS NULL AND state = 'pending' RETURNING id`,
      );
      const [x, y] = rows.map((row) => row.id).sort((a, b) => Number(a) - Number(b));
      if (x === undefined || y === undefined) throw new Error('two deliveries expected');
      const records = [
        delivered(x, 'stale', T0 + 10, { merge: { t: '1' } }),
        delivered(x, 'tok', T0 + 20, second),
        delivered(y, 'tok', T0 + 30, { merge: { t: '3' } }),
      ];
      expect(await recordPostgresAttempts(pool, records)).toBe(2);
      const stored = await pool.query<{ key: string; values: unknown; updatedAt: string }>(
        'SELECT key, ref_values AS values, updated_at AS "updatedAt" FROM key_references',
      );
      expect(stored.rows.map((r) => [r.key, r.values, Number(r.updatedAt)])).toEqual(expected);
      await pool.query('DELETE FROM key_references');
    }
  });

  // The references of a batch are written by two set-based statements (postgres-references.ts); what they leave
  // must be what writing them one record at a time in order leaves, whatever the mix of keys, merges, clears,
  // retries and stale tokens. Random batches (seeded, so a failure repeats) against a model that applies them one
  // by one. Repeated deliveries occur, but the orders only they can break are rare here: the test above pins them.
  it('leaves the references that one-by-one records would, for random batches', async () => {
    const { journal, store, pool } = await migratedJournal();
    // Few deliveries and keys, many stale tokens: repeats, same-key neighbours and skipped records are common.
    const keys = ['a', 'b', null];
    await store.ingest(
      Array.from({ length: 6 }, (_, i) => ({
        ...makeIngestItem({ receivedAt: T0 + i, targets: ['tickets'] }),
        keys: [keys[i % keys.length] ?? null],
      })),
    );
    const deliveries = await journal.sql<{ id: string; key: string | null }>(
      'SELECT id, correlation_key AS key FROM deliveries ORDER BY id',
    );
    const random = seededRandom(7);
    const model = new Map<string, { values: Record<string, string>; updatedAt: number }>();
    for (let trial = 0; trial < 100; trial += 1) {
      await pool.query(`UPDATE deliveries SET state = 'pending', claim_token = 'tok'`);
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
          claimToken: random(3) === 0 ? 'stale' : 'tok',
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
      const { rows: stored } = await pool.query<{ key: string; values: Record<string, string>; updatedAt: string }>(
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
