import type pg from 'pg';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import { applyVerdict, type TargetVerdict } from '../../delivery/pacing/apply-verdict.js';
import { lockTargetPacing, lockTargetPacingStatement, saveTargetPacing } from './lock-target-pacing.js';
import { prepared } from './prepared.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

// A healthy target's counters, and the condition that only a target that is not healthy matches (so a healthy
// row is neither locked nor written), nor one whose circuit opened after the success was answered
// (apply-verdict.ts: another instance's later failures, written first, stay).
const RESET = 'UPDATE target_pacing SET failures = 0, open_until = NULL, probe_until = NULL, probe_token = NULL';
const UNHEALTHY = '(failures <> 0 OR open_until IS NOT NULL OR probe_until IS NOT NULL)';
const NOT_OPENED_SINCE = (at: string, cooldown: string) => `(open_until IS NULL OR open_until - ${cooldown} <= ${at})`;
// The rows are locked in name order (the subquery), as in the transaction below, so the two cannot deadlock.
const resetSucceeded = prepared(
  'pacing_reset_since',
  `${RESET} WHERE target IN (
     SELECT target FROM target_pacing JOIN unnest($1::text[], $2::bigint[], $3::bigint[]) AS v(target, at, cooldown)
       USING (target)
     WHERE ${UNHEALTHY} AND ${NOT_OPENED_SINCE('v.at', 'v.cooldown')} ORDER BY target FOR UPDATE OF target_pacing
   )`,
);
// One target, the usual case: a single row needs no lock order. PostgreSQL keeps a generic plan for this one
// after five calls; with `= ANY($1)` it planned every call anew, since the generic plan, made for an array of
// unknown length, looks dearer than a custom one for one target (11 µs of the server's CPU per event in the
// lifecycle pipeline, bench/README.md). target_pacing holds a row per target, so no plan of it can go stale.
const resetOneSucceeded = prepared(
  'pacing_reset_one_since',
  `${RESET} WHERE target = $1 AND ${UNHEALTHY} AND ${NOT_OPENED_SINCE('$2::bigint', '$3::bigint')}`,
);

/**
 * Applies a group of verdicts, each target's in the order given. A target that only succeeded (the common case)
 * needs no read: its counters are reset by one conditional UPDATE that matches, and so locks and writes, only
 * rows with something to reset; a healthy target costs no lock and no write. The other targets are locked in
 * name order in one transaction, so two instances reporting on overlapping targets wait rather than deadlock,
 * and the verdicts are folded by the pure `applyVerdict`.
 */
export async function reportPostgresVerdicts(pool: pg.Pool, verdicts: readonly TargetVerdict[]): Promise<void> {
  if (verdicts.length === 0) return;
  const byTarget = new Map<string, TargetVerdict[]>();
  for (const verdict of verdicts) byTarget.set(verdict.target, [...(byTarget.get(verdict.target) ?? []), verdict]);
  const succeeded = [...byTarget].filter(([, list]) => list.every((verdict) => verdict.kind === 'delivered'));
  if (succeeded.length > 0) {
    // Per target its latest success, and the cool-down its policy says.
    const rows = succeeded.map(([target, list]) => [
      target,
      Math.max(...list.map((verdict) => verdict.at)),
      list.at(-1)?.policy.circuit.cooldownMs ?? 0,
    ]);
    const [only, ...more] = rows;
    await pool.query(
      more.length === 0 && only !== undefined
        ? resetOneSucceeded(only)
        : resetSucceeded([0, 1, 2].map((column) => rows.map((row) => row[column]))),
    );
    for (const [target] of succeeded) byTarget.delete(target);
  }
  if (byTarget.size === 0) return;
  const targets = [...byTarget.keys()].sort();
  await withPostgresTransaction(
    pool,
    async (client, locked) => {
      for (const [index, target] of targets.entries()) {
        const list = byTarget.get(target) ?? [];
        const first = list[0];
        if (first === undefined) continue;
        const opened = index === 0 ? (locked[0] as pg.QueryResult<PacingState> | undefined) : undefined;
        const before = await lockTargetPacing(client, target, first.policy, first.at, opened);
        const after = list.reduce(applyVerdict, before);
        if (JSON.stringify(after) !== JSON.stringify(before)) await saveTargetPacing(client, target, after);
      }
    },
    // The first target's lock goes with the BEGIN, in one round trip, as the attempt record's does. A failure's
    // verdict commits before its record (launch-attempt.ts), so no claim sees the attempt neither in flight nor
    // failed.
    lockTargetPacingStatement(targets[0] ?? ''),
  );
}
