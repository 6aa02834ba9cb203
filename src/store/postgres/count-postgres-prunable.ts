import type pg from 'pg';
import { unfinishedDeliverySql } from '../unfinished-delivery-sql.js';
import { NOTHING_PRUNED, type PruneCounts, type PruneCutoffs } from '../prune-request.js';

/** What pruning with these cutoffs would remove now, in one read-only statement (`switchyard prune --dry-run`). */
export async function countPostgresPrunable(pool: pg.Pool, cutoffs: PruneCutoffs): Promise<PruneCounts> {
  const result = await pool.query<PruneCounts>(
    `WITH gone AS MATERIALIZED (
       SELECT e.id FROM events e WHERE e.received_at < $1 AND NOT EXISTS (
         SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND ${unfinishedDeliverySql('$1', '$2')})),
     gone_deliveries AS MATERIALIZED (SELECT id, state FROM deliveries WHERE event_id IN (SELECT id FROM gone))
     SELECT (SELECT count(*) FROM gone)::int AS events, (SELECT count(*) FROM gone_deliveries)::int AS deliveries,
       (SELECT count(*) FROM attempts WHERE delivery_id IN (SELECT id FROM gone_deliveries))::int AS attempts,
       (SELECT count(*) FROM gone_deliveries WHERE state = 'dead')::int AS "deadLetters"`,
    [cutoffs.eventsBefore, cutoffs.deadBefore],
  );
  return result.rows[0] ?? NOTHING_PRUNED;
}
