import { afterEach, expect, it } from 'vitest';
import type { TargetVerdict } from '../../../src/delivery/pacing/apply-verdict.js';
import { createPostgresPool } from '../../../src/store/postgres/create-postgres-pool.js';
import { reportPostgresVerdicts } from '../../../src/store/postgres/report-postgres-verdicts.js';
import { describePostgres } from '../describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../temp-postgres-journal.js';

const POLICY = { rateLimit: null, concurrency: 4, circuit: { failures: 5, cooldownMs: 30_000 }, maxDelayMs: 60_000 };
const delivered = (target: string, claimToken = 'c'): TargetVerdict => ({
  target,
  kind: 'delivered',
  at: 1_000,
  policy: POLICY,
  claimToken,
});

// Targets whose verdicts all succeeded cost one read when healthy; for a single target (the usual case) a
// statement PostgreSQL can keep a generic plan for, instead of planning one at every call. The others are folded
// under lock by applyVerdict.
describePostgres('verdicts of targets that only succeeded', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function journalWithTargets() {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const store = await journal.open();
    await store.migrate();
    await store.close();
    await journal.sql(
      `INSERT INTO target_pacing (target, tokens, refilled_at, failures, open_until, probe_until, probe_token)
       VALUES ('failing', 0, 0, 3, NULL, NULL, NULL), ('open', 0, 0, 5, 9000, 2000, 'p'), ('healthy', 0, 0, 0, NULL, NULL, NULL)`,
    );
    // One connection, so that its prepared statements can be read back.
    const pool = createPostgresPool({ url: testDatabaseUrl, schema: journal.schema, pool: { max: 1 } });
    cleanups.push(() => pool.end());
    const rows = async () =>
      (
        await pool.query<{ target: string; failures: number; openUntil: number | null; probeToken: string | null }>(
          `SELECT target, failures, open_until AS "openUntil", probe_token AS "probeToken", xmin::text AS version
           FROM target_pacing ORDER BY target`,
        )
      ).rows;
    return { pool, rows };
  }

  it('resets one target or several, and leaves a healthy one unwritten', async () => {
    const { pool, rows } = await journalWithTargets();
    const before = await rows();
    await reportPostgresVerdicts(pool, [delivered('failing'), delivered('failing'), delivered('healthy')]);
    const after = await rows();
    expect(after).toEqual([
      { target: 'failing', failures: 0, openUntil: null, probeToken: null, version: expect.any(String) },
      before[1], // healthy: the same row version, so not even rewritten
      before[2],
    ]);
    await reportPostgresVerdicts(pool, [delivered('open')]);
    expect((await rows())[2]).toEqual({
      target: 'open',
      failures: 0,
      openUntil: null,
      probeToken: null,
      version: expect.any(String),
    });
  });

  it("leaves a circuit that opened after the success was answered, but ends the success's own probe", async () => {
    const { pool, rows } = await journalWithTargets();
    // Opened at 5,000 (open until 35,000, cool-down 30 s): after the successes below, answered at 1,000.
    await pool.query(
      `INSERT INTO target_pacing (target, tokens, refilled_at, failures, open_until, probe_until, probe_token)
       VALUES ('opened-later', 0, 0, 5, 35000, NULL, NULL), ('probing', 0, 0, 5, 35000, 99999, 'p')`,
    );
    const before = await rows();
    await reportPostgresVerdicts(pool, [delivered('opened-later')]);
    await reportPostgresVerdicts(pool, [delivered('opened-later'), delivered('probing', 'p')]);
    const after = await rows();
    expect(after[3]).toEqual(before[3]); // opened-later: the same row version, not even rewritten
    expect(after[4]).toMatchObject({ target: 'probing', failures: 5, openUntil: 35_000, probeToken: null });
  });

  it("keeps the answer time of the newest failure, and a success answered before it leaves the failures' count", async () => {
    const { pool } = await journalWithTargets();
    const failed = (at: number): TargetVerdict => ({ ...delivered('healthy'), kind: 'retry', at });
    const row = async () =>
      (
        await pool.query<{ failures: number; lastFailureAt: number | null }>(
          `SELECT failures, last_failure_at AS "lastFailureAt" FROM target_pacing WHERE target = 'healthy'`,
        )
      ).rows[0];
    // Another instance's failures, answered at 2,000 and 2,001, written before this one's success answered at 1,000.
    await reportPostgresVerdicts(pool, [failed(2_001), failed(2_000)]);
    expect(await row()).toEqual({ failures: 2, lastFailureAt: 2_001 });
    await reportPostgresVerdicts(pool, [delivered('healthy')]);
    expect(await row()).toEqual({ failures: 2, lastFailureAt: 2_001 });
    await reportPostgresVerdicts(pool, [{ ...delivered('healthy'), at: 2_001 }]);
    expect(await row()).toEqual({ failures: 0, lastFailureAt: 2_001 });
  });

  it('keeps a generic plan for the one-target read after five calls', async () => {
    const { pool } = await journalWithTargets();
    for (let call = 0; call < 8; call += 1) await reportPostgresVerdicts(pool, [delivered('healthy')]);
    const plans = await pool.query<{ generic: string; custom: string }>(
      `SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements
       WHERE name = 'switchyard_pacing_unhealthy_one'`,
    );
    expect(plans.rows).toEqual([{ generic: '3', custom: '5' }]);
  });
});
