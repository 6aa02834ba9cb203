import { afterEach, expect, it } from 'vitest';
import { describePostgres } from '../describe-postgres.js';
import { makeIngestItem, T0 } from '../make-ingest-item.js';
import { migratedJournalWithPool } from './migrated-journal-with-pool.js';

// A claim that writes the target's pacing row back (a half-open probe, rate-limit tokens) must keep the newest
// failure's time (migration 9), or a late success would again count as newer than the failures.
describePostgres('claims and the newest failure time', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a probe claim and a rate-limited claim keep last_failure_at', async () => {
    const { store, pool } = await migratedJournalWithPool(cleanups, 2);
    const shared = store.sharedTargets;
    if (shared === undefined) throw new Error('a PostgreSQL store shares its targets');
    await store.ingest([0, 1, 2].map((ms) => makeIngestItem({ receivedAt: T0 + ms, targets: ['hook'] })));
    const NOW = T0 + 100_000;
    const FAILED_AT = NOW - 30_001;
    // Open until NOW - 1: half-open now.
    await pool.query(
      `INSERT INTO target_pacing (target, tokens, refilled_at, failures, open_until, last_failure_at)
       VALUES ('hook', 3, $1, 5, $2, $3)`,
      [NOW, NOW - 1, FAILED_AT],
    );
    const row = async () =>
      (
        await pool.query<{ probeToken: string | null; tokens: number; lastFailureAt: number }>(
          `SELECT probe_token AS "probeToken", tokens, last_failure_at::float8 AS "lastFailureAt" FROM target_pacing`,
        )
      ).rows[0];
    const policy = {
      rateLimit: null,
      concurrency: 4,
      circuit: { failures: 5, cooldownMs: 30_000 },
      maxDelayMs: 60_000,
    };

    const probe = await shared.claim({ target: 'hook', now: NOW, limit: 3, leaseMs: 60_000, policy });
    expect(probe.claims).toHaveLength(1);
    expect(await row()).toMatchObject({ probeToken: expect.any(String), lastFailureAt: FAILED_AT });

    await pool.query(
      'UPDATE target_pacing SET open_until = NULL, probe_until = NULL, probe_token = NULL, failures = 2',
    );
    const limited = { ...policy, rateLimit: { perSecond: 1, burst: 3 } };
    const paced = await shared.claim({ target: 'hook', now: NOW + 1, limit: 1, leaseMs: 60_000, policy: limited });
    expect(paced.claims).toHaveLength(1);
    expect(await row()).toMatchObject({ tokens: expect.any(Number), lastFailureAt: FAILED_AT });
    expect((await row())?.tokens).toBeLessThan(3);
  });
});
