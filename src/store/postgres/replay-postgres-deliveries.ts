import type pg from 'pg';
import { replayableSql } from '../replayable-sql.js';
import type { ReplaySelection } from '../store.js';
import { parseDeliveryId } from '../sqlite/parse-delivery-id.js';
import { postgresDeliveryFilter } from './postgres-delivery-filter.js';

const REQUEUE = `UPDATE deliveries SET state = 'pending', schedule_attempts = 0, retry_from = $1,
  next_attempt_at = $1, claim_token = NULL, updated_at = $1,
  replay_generation = replay_generation + CASE WHEN state = 'delivered' THEN 1 ELSE 0 END`;

/**
 * Re-queues dead deliveries, and delivered ones when asked (by id, or every one matching a filter, oldest id
 * first up to its limit) in one statement; pending and held ones are left alone. The state test stays in the
 * outer WHERE so a row re-queued by a concurrent replay is re-checked after the wait and skipped. Returns the
 * ids in id order.
 */
export async function replayPostgresDeliveries(
  pool: pg.Pool,
  selection: ReplaySelection,
  now: number,
): Promise<string[]> {
  let result: pg.QueryResult<{ id: number }>;
  const replayable = replayableSql(selection.includeDelivered);
  if ('ids' in selection) {
    result = await pool.query(`${REQUEUE} WHERE id = ANY($2::bigint[]) AND ${replayable} RETURNING id`, [
      now,
      selection.ids.map(parseDeliveryId).filter((id) => id !== undefined),
    ]);
  } else {
    const { where, params } = postgresDeliveryFilter(selection.filter, {
      extra: [replayable],
      firstParam: 2,
    });
    const limit =
      selection.filter.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(selection.filter.limit))}`;
    result = await pool.query(
      `${REQUEUE} WHERE ${replayable} AND id IN (SELECT id FROM deliveries ${where} ORDER BY id${limit})
       RETURNING id`,
      [now, ...params],
    );
  }
  return result.rows
    .map((row) => row.id)
    .sort((a, b) => a - b)
    .map((id) => `dlv_${id}`);
}
