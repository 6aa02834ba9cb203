import type pg from 'pg';

/**
 * Dead-letters a target's pending deliveries, unless an instance declared the target at or after `quietSince`
 * (its rules define it: it will deliver them). Deliveries under a live claim are left to their claim.
 */
export async function deadLetterUnknownTarget(
  pool: pg.Pool,
  options: { target: string; reason: string; now: number; quietSince: number },
): Promise<number> {
  const { target, reason, now, quietSince } = options;
  const result = await pool.query(
    `UPDATE deliveries SET state = 'dead', last_error = $1, claim_token = NULL, updated_at = $2
     WHERE target = $3 AND state = 'pending' AND (claim_token IS NULL OR next_attempt_at <= $2)
       AND NOT EXISTS (SELECT 1 FROM target_declarations WHERE target = $3 AND seen_at >= $4)`,
    [reason, now, target, quietSince],
  );
  return result.rowCount ?? 0;
}
