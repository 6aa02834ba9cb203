import type pg from 'pg';
import { applyVerdict, type TargetVerdict } from '../../delivery/pacing/apply-verdict.js';
import { lockTargetPacing, saveTargetPacing } from './lock-target-pacing.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

/**
 * Applies a group of verdicts in one transaction, each target's in the order given. Targets are locked in name
 * order, so two instances reporting on overlapping targets wait rather than deadlock. A row that ends up as it
 * was (a success on a closed circuit, the common case) is not written.
 */
export async function reportPostgresVerdicts(pool: pg.Pool, verdicts: readonly TargetVerdict[]): Promise<void> {
  if (verdicts.length === 0) return;
  const byTarget = new Map<string, TargetVerdict[]>();
  for (const verdict of verdicts) byTarget.set(verdict.target, [...(byTarget.get(verdict.target) ?? []), verdict]);
  await withPostgresTransaction(pool, async (client) => {
    for (const target of [...byTarget.keys()].sort()) {
      const list = byTarget.get(target) ?? [];
      const first = list[0];
      if (first === undefined) continue;
      const before = await lockTargetPacing(client, target, first.policy, first.at);
      const after = list.reduce(applyVerdict, before);
      if (JSON.stringify(after) !== JSON.stringify(before)) await saveTargetPacing(client, target, after);
    }
  });
}
