import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { minuteOf } from '../event-count-buckets.js';
import { PRUNE_EVENT_COUNTS_SQL } from '../event-counts-prune-sql.js';
import { PRUNE_SENT_DIGESTS_SQL } from '../sent-digests-prune-sql.js';
import { unfinishedDeliverySql } from '../unfinished-delivery-sql.js';
import { pruneSqliteIncidents } from './prune-sqlite-incidents.js';
import {
  NOTHING_PRUNED,
  type PruneBatchResult,
  type PruneCounts,
  type PruneCutoffs,
  type PruneRequest,
} from '../prune-request.js';

// An event is finished when none of its deliveries is unfinished or finished too recently for its limit.
const UNFINISHED = `SELECT 1 FROM deliveries d WHERE d.event_id = e.id
  AND ${unfinishedDeliverySql('@eventsBefore', '@deadBefore')}`;
const IDS = 'SELECT value FROM json_each(@ids)';

/**
 * Retention on the embedded journal. A batch looks at the next `limit` events in id (= receipt) order through
 * the primary key, so its cost is bounded whatever the journal's size, and runs in one IMMEDIATE transaction:
 * nothing can make an event unfinished between the check and the delete. The space freed goes back to the file
 * system at once when the journal has `auto_vacuum = INCREMENTAL` (see enable-incremental-vacuum.ts).
 */
export function createSqliteRetention(db: Database.Database, path: string) {
  const window = db.prepare<
    { after: string; limit: number } & PruneCutoffs,
    { id: string; receivedAt: number; finished: number }
  >(
    `SELECT e.id AS id, e.received_at AS receivedAt, NOT EXISTS (${UNFINISHED}) AS finished
     FROM events e WHERE e.id > @after ORDER BY e.id LIMIT @limit`,
  );
  const countDeliveries = db.prepare<{ ids: string }, { deliveries: number; deadLetters: number }>(
    `SELECT count(*) AS deliveries, coalesce(sum(state = 'dead'), 0) AS deadLetters
     FROM deliveries WHERE event_id IN (${IDS})`,
  );
  const deleteAttempts = db.prepare<{ ids: string }>(
    `DELETE FROM attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE event_id IN (${IDS}))`,
  );
  const deleteDeliveries = db.prepare<{ ids: string }>(`DELETE FROM deliveries WHERE event_id IN (${IDS})`);
  const deleteEvents = db.prepare<{ ids: string }>(`DELETE FROM events WHERE id IN (${IDS})`);
  // A throttle key untouched since before the events cutoff: its window is long over. One still counting
  // suppressed deliveries stays: the next one let through reports them (and only then may they go).
  const deleteThrottleKeys = db.prepare<{ eventsBefore: number }>(
    'DELETE FROM throttle_keys WHERE updated_at < @eventsBefore AND suppressed = 0',
  );
  // Likewise a correlation key's references (issue 14): nothing was delivered for it since the cutoff.
  const deleteReferences = db.prepare<{ eventsBefore: number }>(
    'DELETE FROM key_references WHERE updated_at < @eventsBefore',
  );
  const deleteSentDigests = db.prepare<[eventsBefore: number]>(PRUNE_SENT_DIGESTS_SQL);
  const deleteCounts = db.prepare<[minute: number, limit: number]>(PRUNE_EVENT_COUNTS_SQL);
  const pruneIncidents = pruneSqliteIncidents(db);
  const prunable = db.prepare<PruneCutoffs, PruneCounts>(
    `WITH gone AS MATERIALIZED (SELECT e.id FROM events e WHERE e.received_at < @eventsBefore AND NOT EXISTS (${UNFINISHED})),
     gone_deliveries AS MATERIALIZED (SELECT id, state FROM deliveries WHERE event_id IN (SELECT id FROM gone))
     SELECT (SELECT count(*) FROM gone) AS events, (SELECT count(*) FROM gone_deliveries) AS deliveries,
       (SELECT count(*) FROM attempts WHERE delivery_id IN (SELECT id FROM gone_deliveries)) AS attempts,
       (SELECT count(*) FROM gone_deliveries WHERE state = 'dead') AS deadLetters`,
  );

  const pruneWindow = (request: PruneRequest): PruneBatchResult => {
    const cutoffs = { eventsBefore: request.eventsBefore, deadBefore: request.deadBefore };
    const rows = window.all({ ...cutoffs, after: request.after ?? '', limit: request.limit });
    const last = rows.at(-1);
    // Ids are receipt-ordered: once one is young enough to keep, the rest of the journal is too.
    const reachedYoung = rows.some((row) => row.receivedAt >= request.eventsBefore);
    const next = last === undefined || rows.length < request.limit || reachedYoung ? undefined : last.id;
    deleteCounts.run(minuteOf(request.eventsBefore), request.limit);
    const gone = rows.filter((row) => row.finished === 1 && row.receivedAt < request.eventsBefore).map((row) => row.id);
    if (next === undefined) {
      deleteThrottleKeys.run(cutoffs);
      deleteReferences.run(cutoffs);
    }
    if (gone.length === 0) return { ...NOTHING_PRUNED, next, busy: false };
    const ids = JSON.stringify(gone);
    const counted = countDeliveries.get({ ids }) ?? { deliveries: 0, deadLetters: 0 };
    const attempts = deleteAttempts.run({ ids }).changes;
    const deliveries = deleteDeliveries.run({ ids }).changes;
    const events = deleteEvents.run({ ids }).changes;
    // In the same commit (one fsync): moves the pages this batch freed off the end of the file. A no-op
    // unless the journal has auto_vacuum = INCREMENTAL.
    db.pragma('incremental_vacuum');
    return { events, deliveries, attempts, deadLetters: counted.deadLetters, next, busy: false };
  };
  const batch = db.transaction((request: PruneRequest): PruneBatchResult => {
    const result = pruneWindow(request);
    // After the batch's events went: a record goes only once none of its events is left.
    pruneIncidents(request);
    // At the end of a pass, after its last events went: a digest's event may have gone in this very batch.
    if (result.next === undefined) deleteSentDigests.run(request.eventsBefore);
    return result;
  });

  return {
    pruneBatch(request: PruneRequest): PruneBatchResult {
      // The batch deletes attempts, then deliveries, then events, so no reference can dangle; SQLite's own
      // check of each deleted event against deliveries made a 500-event batch 20 to 40 times slower (measured:
      // 60-115 ms against 3 ms), all of it with the event loop blocked. The pragma cannot change inside a
      // transaction, so it is turned off around this one and back on before anything else runs (synchronous).
      db.pragma('foreign_keys = OFF');
      try {
        return batch.immediate(request);
      } finally {
        db.pragma('foreign_keys = ON');
      }
    },
    countPrunable: (cutoffs: PruneCutoffs): PruneCounts => prunable.get(cutoffs) ?? NOTHING_PRUNED,
    journalSize(): number {
      return [path, `${path}-wal`].reduce(
        (total, file) => total + (statSync(file, { throwIfNoEntry: false })?.size ?? 0),
        0,
      );
    },
  };
}

export type SqliteRetention = ReturnType<typeof createSqliteRetention>;
