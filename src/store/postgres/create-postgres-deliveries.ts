import type pg from 'pg';
import type { DeliveryFilter, DeliveryState, StoredAttempt, StoredDelivery } from '../store.js';
import { inLine, toStoredDelivery } from '../key-order-sql.js';
import { pendingTargetsSql } from '../pending-targets-sql.js';
import { COUNTED_DELIVERIES_SQL } from '../counted-deliveries-sql.js';
import { parseDeliveryId } from '../sqlite/parse-delivery-id.js';
import { POSTGRES_COLUMNS } from './postgres-columns.js';
import { postgresDeliveryFilter } from './postgres-delivery-filter.js';

const DEFAULT_LIMIT = 100;

type Claim = { deliveryId: string; claimToken: string; nextAttemptAt: number };

/**
 * The single-statement parts of the delivery engine's and the CLI's side of the journal (each statement is
 * its own transaction); claiming, recording and replay have files of their own.
 */
export function createPostgresDeliveries(pool: pg.Pool) {
  return {
    async releaseClaims(claims: readonly Claim[]): Promise<void> {
      const parsed = claims.flatMap((claim) => {
        const rowId = parseDeliveryId(claim.deliveryId);
        return rowId === undefined ? [] : [{ ...claim, rowId }];
      });
      if (parsed.length === 0) return;
      await pool.query(
        `UPDATE deliveries AS d SET claim_token = NULL, next_attempt_at = c.next_attempt_at
         FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS c (id, token, next_attempt_at)
         WHERE d.id = c.id AND d.claim_token = c.token AND d.state = 'pending'`,
        [parsed.map((c) => c.rowId), parsed.map((c) => c.claimToken), parsed.map((c) => c.nextAttemptAt)],
      );
    },
    async releaseAllClaims(now: number): Promise<number> {
      const result = await pool.query(
        `UPDATE deliveries SET claim_token = NULL, next_attempt_at = least(next_attempt_at, $1)
         WHERE claim_token IS NOT NULL AND state = 'pending'`,
        [now],
      );
      return result.rowCount ?? 0;
    },
    async nextDueAt(target: string): Promise<number | undefined> {
      const result = await pool.query<{ due: number | null }>(
        `SELECT min(next_attempt_at) AS due FROM deliveries
         WHERE state = 'pending' AND target = $1 AND ${inLine('deliveries', null)}`,
        [target],
      );
      return result.rows[0]?.due ?? undefined;
    },
    async countByTarget(): Promise<{ target: string; state: DeliveryState; count: number }[]> {
      const result = await pool.query<{ target: string; state: DeliveryState; count: number }>(
        `SELECT target, state, count(*) AS count FROM deliveries WHERE ${COUNTED_DELIVERIES_SQL}
         GROUP BY target, state ORDER BY target, state`,
      );
      return result.rows;
    },
    async pendingTargets(): Promise<string[]> {
      const result = await pool.query<{ target: string }>(pendingTargetsSql(''));
      return result.rows.map((row) => row.target);
    },
    async deadLetterTarget(target: string, reason: string, now: number): Promise<number> {
      const result = await pool.query(
        `UPDATE deliveries SET state = 'dead', last_error = $1, claim_token = NULL, updated_at = $2
         WHERE target = $3 AND state = 'pending'`,
        [reason, now, target],
      );
      return result.rowCount ?? 0;
    },
    async getDelivery(deliveryId: string): Promise<StoredDelivery | undefined> {
      const rowId = parseDeliveryId(deliveryId);
      if (rowId === undefined) return undefined;
      const result = await pool.query<StoredDelivery>(
        `SELECT ${POSTGRES_COLUMNS.listedDelivery} FROM deliveries WHERE id = $1`,
        [rowId],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : toStoredDelivery(row);
    },
    async listAttempts(deliveryId: string): Promise<StoredAttempt[]> {
      const rowId = parseDeliveryId(deliveryId);
      if (rowId === undefined) return [];
      const result = await pool.query<Omit<StoredAttempt, 'deliveryId'>>(
        `SELECT number, started_at AS "startedAt", duration_ms AS "durationMs", outcome, status_code AS "statusCode",
           detail
         FROM attempts WHERE delivery_id = $1 ORDER BY number`,
        [rowId],
      );
      return result.rows.map((row) => ({ deliveryId, ...row }));
    },
    async findDeliveries(filter: DeliveryFilter): Promise<StoredDelivery[]> {
      const { where, params } = postgresDeliveryFilter(filter);
      const limit = Math.max(0, Math.floor(filter.limit ?? DEFAULT_LIMIT));
      const direction = filter.order === 'newest' ? 'DESC' : 'ASC';
      // `deliveries.id`, not `id`: in ORDER BY a bare name means the output column, here the text 'dlv_<n>'.
      const result = await pool.query<StoredDelivery>(
        `SELECT ${POSTGRES_COLUMNS.listedDelivery} FROM deliveries ${where}
         ORDER BY created_at ${direction}, deliveries.id ${direction} LIMIT $${params.length + 1}`,
        [...params, limit],
      );
      return result.rows.map(toStoredDelivery);
    },
  };
}

export type PostgresDeliveries = ReturnType<typeof createPostgresDeliveries>;
