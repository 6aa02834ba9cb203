import type pg from 'pg';
import { NOTHING_PRUNED, type PruneBatchResult, type PruneRequest } from '../prune-request.js';
import { minuteOf } from '../event-count-buckets.js';
import { PRUNE_EVENT_COUNTS_SQL } from '../event-counts-prune-sql.js';
import { PRUNE_SENT_DIGESTS_SQL } from '../sent-digests-prune-sql.js';
import { unfinishedDeliverySql } from '../unfinished-delivery-sql.js';
import { numbered } from './numbered.js';
import { prunePostgresIncidents } from './prune-postgres-incidents.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

/**
 * One retention batch on the shared journal, in one transaction. Only one instance prunes a journal at a time:
 * the batch first tries a transaction-level advisory lock of its own (keyed like the migrations' lock, by the
 * schema), and answers `busy` at once when another instance holds it, so nothing waits and no lock outlives a
 * killed process. The deliveries of the candidate events are locked before they are judged, so a replay running
 * at the same moment either happens first (and the event stays) or finds the rows gone. Space freed is reused
 * after autovacuum has passed; the files do not shrink (docs/operations.md).
 */
export async function prunePostgresBatch(
  pool: pg.Pool,
  schema: string,
  request: PruneRequest,
): Promise<PruneBatchResult> {
  return withPostgresTransaction(pool, async (client) => {
    const result = await pruneWindow(client, schema, request);
    // After the batch's events went: a record goes only once none of its events is left.
    if (!result.busy) await prunePostgresIncidents(client, request);
    // At the end of a pass, after its last events went (as on SQLite): sent digests whose event is gone.
    if (!result.busy && result.next === undefined)
      await client.query(numbered(PRUNE_SENT_DIGESTS_SQL), [request.eventsBefore]);
    return result;
  });
}

async function pruneWindow(client: pg.PoolClient, schema: string, request: PruneRequest): Promise<PruneBatchResult> {
  const lock = await client.query<{ locked: boolean }>(
    "SELECT pg_try_advisory_xact_lock(hashtext('switchyard.prune'), hashtext($1)) AS locked",
    [schema],
  );
  if (lock.rows[0]?.locked !== true) return { ...NOTHING_PRUNED, next: request.after, busy: true };
  const window = await client.query<{ id: string; receivedAt: number }>(
    'SELECT id, received_at AS "receivedAt" FROM events WHERE id > $1 ORDER BY id LIMIT $2',
    [request.after ?? '', request.limit],
  );
  const rows = window.rows;
  const last = rows.at(-1);
  // Ids are receipt-ordered: once one is young enough to keep, the rest of the journal is too.
  const reachedYoung = rows.some((row) => row.receivedAt >= request.eventsBefore);
  const next = last === undefined || rows.length < request.limit || reachedYoung ? undefined : last.id;
  // At the end of a pass, as SQLite does: a key's references untouched since the events cutoff go (issue 14).
  if (next === undefined)
    await client.query('DELETE FROM key_references WHERE updated_at < $1', [request.eventsBefore]);
  await client.query(numbered(PRUNE_EVENT_COUNTS_SQL), [minuteOf(request.eventsBefore), request.limit]);
  const old = rows.filter((row) => row.receivedAt < request.eventsBefore).map((row) => row.id);
  if (old.length === 0) return { ...NOTHING_PRUNED, next, busy: false };
  const unfinished = await client.query<{ eventId: string }>(
    `WITH locked AS (SELECT event_id, state, updated_at, created_at, held_by, throttle_key
         FROM deliveries WHERE event_id = ANY($1) FOR UPDATE)
       SELECT DISTINCT event_id AS "eventId" FROM locked d WHERE ${unfinishedDeliverySql('$2', '$3')}`,
    [old, request.eventsBefore, request.deadBefore],
  );
  const kept = new Set(unfinished.rows.map((row) => row.eventId));
  const gone = old.filter((id) => !kept.has(id));
  if (gone.length === 0) return { ...NOTHING_PRUNED, next, busy: false };
  const attempts = await client.query(
    'DELETE FROM attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE event_id = ANY($1))',
    [gone],
  );
  const deliveries = await client.query<{ state: string }>(
    'DELETE FROM deliveries WHERE event_id = ANY($1) RETURNING state',
    [gone],
  );
  const events = await client.query('DELETE FROM events WHERE id = ANY($1)', [gone]);
  return {
    events: events.rowCount ?? 0,
    deliveries: deliveries.rowCount ?? 0,
    attempts: attempts.rowCount ?? 0,
    deadLetters: deliveries.rows.filter((row) => row.state === 'dead').length,
    next,
    busy: false,
  };
}
