import type pg from 'pg';
import type { PacingState } from '../../delivery/pacing/pacing-state.js';
import { applyVerdict, type TargetVerdict } from '../../delivery/pacing/apply-verdict.js';
import { lockTargetPacing, lockTargetPacingStatement, saveTargetPacing } from './lock-target-pacing.js';
import { prepared } from './prepared.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

// A target whose counters are not those of a healthy one. Only such a target has anything a success could
// change, and only the locked fold below can tell what (apply-verdict.ts: not a circuit that opened after the
// success was answered, but the success's own probe, whenever it is written).
const UNHEALTHY = '(failures <> 0 OR open_until IS NOT NULL OR probe_until IS NOT NULL)';
const unhealthy = prepared(
  'pacing_unhealthy',
  `SELECT target FROM target_pacing WHERE target = ANY($1) AND ${UNHEALTHY}`,
);
// One target, the usual case. PostgreSQL keeps a generic plan for this one after five calls; with `= ANY($1)`
// it planned every call anew, since the generic plan, made for an array of unknown length, looks dearer than a
// custom one for one target (11 µs of the server's CPU per event in the lifecycle pipeline, docs/decisions/postgres-plans-per-call.md).
// target_pacing holds a row per target, so no plan of it can go stale.
const unhealthyOne = prepared(
  'pacing_unhealthy_one',
  `SELECT target FROM target_pacing WHERE target = $1 AND ${UNHEALTHY}`,
);

/**
 * Applies a group of verdicts, each target's in the order given. A target that only succeeded and is healthy
 * (the common case) costs one read and no lock or write. The other targets are locked in name order in one
 * transaction, so two instances reporting on overlapping targets wait rather than deadlock, and the verdicts
 * are folded by the pure `applyVerdict`.
 */
export async function reportPostgresVerdicts(pool: pg.Pool, verdicts: readonly TargetVerdict[]): Promise<void> {
  if (verdicts.length === 0) return;
  const byTarget = new Map<string, TargetVerdict[]>();
  for (const verdict of verdicts) byTarget.set(verdict.target, [...(byTarget.get(verdict.target) ?? []), verdict]);
  const succeeded = [...byTarget].filter(([, list]) => list.every((verdict) => verdict.kind === 'delivered'));
  if (succeeded.length > 0) {
    const names = succeeded.map(([target]) => target);
    const found = await pool.query<{ target: string }>(names.length === 1 ? unhealthyOne(names) : unhealthy([names]));
    // A row that turns unhealthy after this read (another instance's failures) keeps what they wrote: the safe
    // side, a success left out.
    const toFold = new Set(found.rows.map((row) => row.target));
    for (const target of names) if (!toFold.has(target)) byTarget.delete(target);
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
