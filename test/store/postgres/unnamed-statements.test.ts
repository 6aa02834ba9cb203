import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { claimPostgresPaced } from '../../../src/store/postgres/claim-postgres-paced.js';
import { leasePostgresDue } from '../../../src/store/postgres/lease-postgres-due.js';
import { recordPostgresAttempts } from '../../../src/store/postgres/record-postgres-attempts.js';

/** A pool whose one connection records what it is sent: no rows, but the pacing row for a claim's lock and 0 for its count. */
function recordingPool(pacingRow: Record<string, unknown>): { pool: pg.Pool; sent: (string | pg.QueryConfig)[] } {
  const sent: (string | pg.QueryConfig)[] = [];
  const client = {
    query: async (config: string | pg.QueryConfig) => {
      sent.push(config);
      if (typeof config === 'string' && config.startsWith('BEGIN; INSERT INTO target_pacing')) {
        // A claim in one round trip: BEGIN, the row created if missing, its lock, the lease (none leased), COMMIT.
        return [{ rows: [] }, { rows: [] }, { rows: [pacingRow] }, { rows: [] }, { rows: [] }];
      }
      if (typeof config === 'string' && config.startsWith('BEGIN; ')) {
        // A claim's BEGIN, lock and count; or a record's BEGIN, locks, record and COMMIT.
        if (config.endsWith('; COMMIT')) return [{ rows: [] }, { rows: [] }, { rows: [], rowCount: 0 }, { rows: [] }];
        // A record's BEGIN, locks and first round: every delivery named in it went in.
        if (config.includes('WITH input')) return [{ rows: [] }, { rows: [] }, { rows: recordedIds(config) }];
        return [{ rows: [] }, { rows: [pacingRow] }, { rows: [{ n: 0 }] }];
      }
      if (typeof config === 'string' && config.endsWith('; COMMIT')) return [{ rows: [] }, { rows: [] }];
      if (typeof config === 'string' && config.startsWith('WITH input')) return { rows: recordedIds(config) };
      return { rows: typeof config !== 'string' && config.text.includes('count(*)') ? [{ n: 0 }] : [] };
    },
    on: () => undefined,
    off: () => undefined,
    release: () => undefined,
  };
  return { pool: { connect: async () => client, query: client.query } as unknown as pg.Pool, sent };
}

/** The ids a RECORD statement names (its first array), as the rows it would return. */
const recordedIds = (text: string) =>
  (/unnest\(ARRAY\[([\d,]+)\]/.exec(text)?.[1] ?? '').split(',').map((id) => ({ id }));

const named = (sent: readonly (string | pg.QueryConfig)[]) =>
  sent.flatMap((config) => (typeof config === 'string' ? [] : [config.name ?? 'unnamed']));

// prepared.ts: a named statement's generic plan, made on a nearly empty journal, read the whole table per call.
describe('statements whose plan depends on the size of deliveries', () => {
  it('sends the lease unnamed, both forms', async () => {
    const { pool, sent } = recordingPool({});
    const request = { target: 't', now: 1_000, limit: 5, leaseMs: 60_000 };
    await leasePostgresDue(pool, request);
    await leasePostgresDue(pool, request, false);
    expect(named(sent)).toEqual(['unnamed', 'unnamed']);
    expect((sent[0] as pg.QueryConfig).values).toEqual(['t', 1_000, 5, expect.any(String), 61_000]);
  });

  const closed = { tokens: 0, refilledAt: 0, failures: 0, openUntil: null, probeUntil: null, probeToken: null };
  const unlimited = {
    rateLimit: null,
    concurrency: 4,
    circuit: { failures: 5, cooldownMs: 30_000 },
    maxDelayMs: 60_000,
  };

  it('claims a target without a rate limit in one round trip, its allowance worked out by the lease itself', async () => {
    const { pool, sent } = recordingPool({ ...closed, pausedUntil: 0 });
    const request = { target: 't', now: 1_000, limit: 3, leaseMs: 60_000, policy: unlimited };
    expect(await claimPostgresPaced(pool, request)).toMatchObject({ claims: [], heldBack: false, circuit: 'closed' });
    // As text, planned anew per call like an unnamed statement; the row created first if missing.
    expect(named(sent)).toEqual([]);
    expect(sent).toEqual([
      expect.stringMatching(
        /^BEGIN; INSERT INTO target_pacing \(target, tokens, refilled_at\) VALUES \('t', 0, 1000\) ON CONFLICT \(target\) DO NOTHING; SELECT tokens.*WHERE target = 't' FOR UPDATE; WITH allowed AS MATERIALIZED \(SELECT GREATEST\(0, LEAST\(3, 4 - \(SELECT count\(\*\).*next_attempt_at > 1000\)\)\)::int AS n FROM target_pacing\s+WHERE target = 't' AND open_until IS NULL AND paused_until <= 1000\).*LIMIT COALESCE\(\(SELECT n FROM allowed\), 0\).*; COMMIT$/s,
      ),
    ]);
  });

  // That the probe is then written back: claim-in-one-round-trip.test.ts (real PostgreSQL).
  it('a half-open circuit that may probe: then stepwise, the count with the BEGIN, the lease on its own', async () => {
    const { pool, sent } = recordingPool({ ...closed, openUntil: 500, pausedUntil: 0 });
    await claimPostgresPaced(pool, { target: 't', now: 1_000, limit: 4, leaseMs: 60_000, policy: unlimited });
    expect(sent).toEqual([
      expect.stringMatching(/^BEGIN; INSERT INTO target_pacing .*WITH allowed .*; COMMIT$/s),
      expect.stringMatching(/^BEGIN; SELECT tokens.*WHERE target = 't' FOR UPDATE; SELECT count\(\*\)/s),
      expect.objectContaining({ text: expect.stringMatching(/^WITH due AS .*LIMIT \$3/s), values: expect.any(Array) }),
      'COMMIT',
    ]);
  });

  // That it then writes the tokens it spent: shared-pacing.test.ts (three instances keep one rate limit).
  it("sends a rate-limited claim's lease on its own, unnamed, not with the COMMIT", async () => {
    const state = { tokens: 3, refilledAt: 1_000, failures: 0, openUntil: null, probeUntil: null, probeToken: null };
    const { pool, sent } = recordingPool({ ...state, pausedUntil: 0 });
    const policy = {
      rateLimit: { perSecond: 1, burst: 3 },
      concurrency: 4,
      circuit: { failures: 5, cooldownMs: 30_000 },
      maxDelayMs: 60_000,
    };
    await claimPostgresPaced(pool, { target: 't', now: 1_000, limit: 4, leaseMs: 60_000, policy });
    expect(sent).toEqual([
      expect.stringMatching(/^BEGIN; /),
      expect.objectContaining({ values: expect.any(Array) }),
      'COMMIT',
    ]);
    expect(named(sent)).toEqual(['unnamed']);
  });

  const record = (deliveryId: string, references?: { merge: Record<string, string> }) => ({
    deliveryId,
    claimToken: 'c',
    attempt: { startedAt: 1_000, durationMs: 5, outcome: 'delivered' as const, statusCode: 200, detail: "it's" },
    next: { state: 'delivered' as const, nextAttemptAt: 1_000, lastError: null },
    references,
  });

  it('writes a batch of attempt records into one round trip with its BEGIN, locks and COMMIT, as text', async () => {
    const { pool, sent } = recordingPool({});
    await recordPostgresAttempts(pool, [record('dlv_9'), record('dlv_7')]);
    expect(sent).toEqual([
      expect.stringMatching(
        /^BEGIN; SELECT id FROM deliveries WHERE id = ANY\('\{9,7\}'::bigint\[\]\) ORDER BY id FOR UPDATE; WITH input .*unnest\(ARRAY\[9,7\]::bigint\[\], ARRAY\['c','c'\]::text\[\].*ARRAY\['it''s','it''s'\]::text\[\].*; COMMIT$/s,
      ),
    ]);
  });

  it('writes the references of a batch with its COMMIT, after every round of records', async () => {
    const { pool, sent } = recordingPool({});
    await recordPostgresAttempts(pool, [record('dlv_7', { merge: { ticket: "T-1'" } }), record('dlv_8')]);
    expect(sent).toEqual([
      expect.stringMatching(/^BEGIN; SELECT id FROM deliveries .* FOR UPDATE; WITH input .*ARRAY\[7,8\]/s),
      expect.stringMatching(
        /^WITH w AS .*unnest\(ARRAY\[7\]::bigint\[\], ARRAY\['\{"ticket":"T-1''"\}'\]::jsonb\[\], ARRAY\[1005\].*; COMMIT$/s,
      ),
    ]);

    // A delivery named twice: its second record in a round of its own; the references still with the COMMIT.
    const twice = recordingPool({});
    await recordPostgresAttempts(twice.pool, [
      record('dlv_7', { merge: { a: '1' } }),
      record('dlv_7'),
      record('dlv_9'),
    ]);
    expect(twice.sent).toEqual([
      expect.stringMatching(/^BEGIN; SELECT .*FOR UPDATE; WITH input .*unnest\(ARRAY\[7,9\]/s),
      // Not with a COMMIT: the references must commit with the records, under the same row locks.
      expect.stringMatching(/^WITH input (?:(?!COMMIT).)*unnest\(ARRAY\[7\](?:(?!COMMIT).)*$/s),
      expect.stringMatching(/^WITH w AS .*INSERT INTO key_references .*; COMMIT$/s),
    ]);
    // Without references, the last round's record goes with the COMMIT.
    const plain = recordingPool({});
    await recordPostgresAttempts(plain.pool, [record('dlv_7'), record('dlv_7')]);
    expect(plain.sent).toEqual([
      expect.stringMatching(/^BEGIN; SELECT .*FOR UPDATE; WITH input .*unnest\(ARRAY\[7\]/s),
      expect.stringMatching(/^WITH input .*unnest\(ARRAY\[7\].*; COMMIT$/s),
    ]);
    expect(named([...sent, ...twice.sent, ...plain.sent])).toEqual([]);
  });
});
