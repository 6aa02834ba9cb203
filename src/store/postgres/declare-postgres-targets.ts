import type pg from 'pg';

/** Records that an instance's rules define `targets`, as of `now`; a later declaration never moves back in time. */
export async function declarePostgresTargets(pool: pg.Pool, targets: readonly string[], now: number): Promise<void> {
  if (targets.length === 0) return;
  // Sorted, so that two instances declaring overlapping sets lock the rows in the same order.
  await pool.query(
    `INSERT INTO target_declarations (target, seen_at)
     SELECT target, $2 FROM unnest($1::text[]) AS t (target) ORDER BY target
     ON CONFLICT (target) DO UPDATE SET seen_at = GREATEST(target_declarations.seen_at, EXCLUDED.seen_at)`,
    [[...new Set(targets)].sort(), now],
  );
}
