import { afterEach, expect, it } from 'vitest';
import type { AttemptRecord, Store } from '../../../src/store/store.js';
import { describePostgres } from '../describe-postgres.js';
import { T0, makeIngestItem } from '../make-ingest-item.js';
import { tempPostgresJournal } from '../temp-postgres-journal.js';

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
});
