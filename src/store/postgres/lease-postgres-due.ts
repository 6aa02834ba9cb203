import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { inLine } from '../key-order-sql.js';
import type { ClaimRequest, StoredDelivery } from '../store.js';

export type LeasedRow = StoredDelivery & {
  rowId: number;
  retryFrom: number;
  scheduleAttempts: number;
  generation: number;
  suppressedCount: number;
};

export interface Leased {
  readonly claimToken: string;
  readonly rows: readonly LeasedRow[];
}

/**
 * Takes up to `limit` due deliveries of one target and leases them, in one statement. FOR UPDATE SKIP LOCKED
 * lets instances claim side by side: rows another instance is claiming are passed over, not waited for, and
 * a row claimed and committed meanwhile fails the re-check of `next_attempt_at <= now` and is passed over too.
 * https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE
 * The delivery is returned as it was before the claim (its due time, not the lease's end), as in SQLite.
 * Order per key (issue 14, key-order-sql.ts): only the first delivery of a key's line is a candidate, so two
 * claims at once can only race for the same row, which the row lock settles; a later one sees it claimed.
 */
export async function leasePostgresDue(client: pg.Pool | pg.PoolClient, request: ClaimRequest): Promise<Leased> {
  const claimToken = randomUUID();
  const claimed = await client.query<LeasedRow>(
    `WITH due AS (
       SELECT id, next_attempt_at, updated_at FROM deliveries
       WHERE state = 'pending' AND target = $1 AND next_attempt_at <= $2 AND ${inLine('deliveries', '$2')}
       ORDER BY next_attempt_at, id LIMIT $3
       FOR UPDATE SKIP LOCKED
     )
     UPDATE deliveries AS d SET claim_token = $4, next_attempt_at = $5, updated_at = $2
     FROM due WHERE d.id = due.id
     RETURNING 'dlv_' || d.id AS id, d.event_id AS "eventId", d.target, d.state, d.attempts,
       due.next_attempt_at AS "nextAttemptAt", d.last_error AS "lastError", d.created_at AS "createdAt",
       due.updated_at AS "updatedAt", d.id AS "rowId", d.retry_from AS "retryFrom",
       d.schedule_attempts AS "scheduleAttempts", d.replay_generation AS "generation", d.suppressed_count AS "suppressedCount",
       d.correlation_key AS "correlationKey"`,
    [request.target, request.now, request.limit, claimToken, request.now + request.leaseMs],
  );
  return { claimToken, rows: claimed.rows };
}
