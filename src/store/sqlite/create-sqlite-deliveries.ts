import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  AttemptRecord,
  ClaimRequest,
  ClaimedDelivery,
  DeliveryFilter,
  DeliveryState,
  ReferenceFilter,
  ReplaySelection,
  StoredAttempt,
  StoredDelivery,
} from '../store.js';
import type { DeliveryCount } from '../delivery-state.js';
import { inLine, toStoredDelivery } from '../key-order-sql.js';
import { COUNT_SLICE_SQL, LAST_DELIVERY_ID_SQL, SLICE_END_SQL } from './delivery-count-sql.js';
import { replayableSql } from '../replayable-sql.js';
import { pendingTargetsSql } from '../pending-targets-sql.js';
import { createSqliteReferences } from './create-sqlite-references.js';
import { deliveryFilterSql, deliveryRowIds } from './delivery-filter-sql.js';
import { parseDeliveryId } from './parse-delivery-id.js';
import { DELIVERY_COLUMNS, LISTED_COLUMNS, type SqliteStatements } from './prepare-sqlite-statements.js';

const DEFAULT_LIMIT = 100;
// In ORDER BY, a bare `id` would name the result column `'dlv_' || id` (DELIVERY_COLUMNS), sorting as text
// (dlv_10 before dlv_2) in a temporary B-tree; `deliveries.id` is the rowid, which the indexes already order.

type DeliveryRow = StoredDelivery & {
  rowId: number;
  retryFrom: number;
  scheduleAttempts: number;
  generation: number;
  suppressedCount: number;
};

/** The delivery engine's and the CLI's side of the SQLite journal; each method is one transaction. */
export function createSqliteDeliveries(db: Database.Database, statements: SqliteStatements) {
  const references = createSqliteReferences(db);
  const selectDue = db.prepare<{ target: string; now: number; limit: number }, DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS}, id AS rowId, retry_from AS retryFrom, schedule_attempts AS scheduleAttempts,
       replay_generation AS generation, suppressed_count AS suppressedCount FROM deliveries
     WHERE state = 'pending' AND target = @target AND next_attempt_at <= @now AND ${inLine('deliveries', '@now')}
     ORDER BY next_attempt_at, deliveries.id LIMIT @limit`,
  );
  const claim = db.prepare<[token: string, until: number, now: number, rowId: number]>(
    'UPDATE deliveries SET claim_token = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?',
  );
  const finish = db.prepare<
    [
      state: DeliveryState,
      counted: number,
      nextAttemptAt: number,
      lastError: string | null,
      now: number,
      rowId: number,
      token: string,
    ]
  >(
    `UPDATE deliveries SET state = ?, attempts = attempts + 1, schedule_attempts = schedule_attempts + ?,
       next_attempt_at = ?, last_error = ?,
       claim_token = NULL, updated_at = ?
     WHERE id = ? AND claim_token = ? AND state = 'pending'`,
  );
  const insertAttempt = db.prepare<
    [
      rowId: number,
      rowIdAgain: number,
      startedAt: number,
      durationMs: number,
      outcome: string,
      code: number | null,
      detail: string | null,
    ]
  >(
    `INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome, status_code, detail)
     VALUES (?, (SELECT coalesce(max(number), 0) + 1 FROM attempts WHERE delivery_id = ?), ?, ?, ?, ?, ?)`,
  );
  const release = db.prepare<[nextAttemptAt: number, rowId: number, token: string]>(
    `UPDATE deliveries SET claim_token = NULL, next_attempt_at = ? WHERE id = ? AND claim_token = ? AND state = 'pending'`,
  );
  const releaseAll = db.prepare<[now: number]>(
    `UPDATE deliveries SET claim_token = NULL, next_attempt_at = min(next_attempt_at, ?)
     WHERE claim_token IS NOT NULL AND state = 'pending'`,
  );
  const nextDue = db
    .prepare<[target: string], number | null>(
      `SELECT min(next_attempt_at) FROM deliveries WHERE state = 'pending' AND target = ? AND ${inLine('deliveries', null)}`,
    )
    .pluck();
  const listAttempts = db.prepare<[rowId: number], Omit<StoredAttempt, 'deliveryId'>>(
    `SELECT number, started_at AS startedAt, duration_ms AS durationMs, outcome, status_code AS statusCode, detail
     FROM attempts WHERE delivery_id = ? ORDER BY number`,
  );
  const getDelivery = db.prepare<[rowId: number], StoredDelivery>(
    `SELECT ${LISTED_COLUMNS} FROM deliveries WHERE id = ?`,
  );
  const lastDeliveryId = db.prepare<[], number | null>(LAST_DELIVERY_ID_SQL).pluck();
  const sliceEnd = db.prepare<[after: number, rows: number], number | null>(SLICE_END_SQL).pluck();
  const countSlice = db.prepare<[after: number, through: number], DeliveryCount>(COUNT_SLICE_SQL);
  const pendingTargets = db.prepare<[], string>(pendingTargetsSql('INDEXED BY deliveries_due')).pluck();
  const deadLetterTarget = db.prepare<[reason: string, now: number, target: string]>(
    `UPDATE deliveries SET state = 'dead', last_error = ?, claim_token = NULL, updated_at = ?
     WHERE target = ? AND state = 'pending'`,
  );
  const REQUEUE = `UPDATE deliveries SET state = 'pending', schedule_attempts = 0, retry_from = @now,
    next_attempt_at = @now, claim_token = NULL, updated_at = @now,
    replay_generation = replay_generation + (state = 'delivered')`;

  const claimTransaction = db.transaction((request: ClaimRequest): ClaimedDelivery[] => {
    const rows = selectDue.all(request);
    const claimToken = randomUUID();
    return rows.map(({ rowId, retryFrom, scheduleAttempts, generation, suppressedCount, ...row }) => {
      claim.run(claimToken, request.now + request.leaseMs, request.now, rowId);
      const delivery = toStoredDelivery(row);
      const event = statements.getEvent.get(delivery.eventId);
      if (event === undefined) throw new Error(`delivery ${delivery.id} refers to a missing event`);
      return {
        delivery,
        event: { ...event, matchedRoutes: JSON.parse(event.matchedRoutes) as string[] },
        claimToken,
        retryFrom,
        scheduleAttempts,
        generation,
        suppressedCount,
        references: references.read(delivery.target, delivery.correlationKey, rowId),
      };
    });
  });
  // A claim is worth nothing after a crash: the one engine of a SQLite journal releases every claim when it
  // starts (releaseAllClaims). So its commit skips the fsync (synchronous = NORMAL: written to the WAL, made
  // durable by the next FULL commit or checkpoint, never reordered before it); the fsync of each claim cost
  // about a sixth of the daemon's time in the pipeline benchmark (issue 11). Every other commit (events,
  // attempt records) stays FULL.
  const relaxed = db.prepare('PRAGMA synchronous = NORMAL');
  const strict = db.prepare('PRAGMA synchronous = FULL');
  const claimDue = (request: ClaimRequest): ClaimedDelivery[] => {
    relaxed.run();
    try {
      return claimTransaction.immediate(request);
    } finally {
      strict.run();
    }
  };
  const recordAttempts = db.transaction((records: readonly AttemptRecord[]): number => {
    let applied = 0;
    for (const { deliveryId, claimToken, attempt, next, counted, references: refs } of records) {
      const rowId = parseDeliveryId(deliveryId);
      if (rowId === undefined) continue;
      const finishedAt = attempt.startedAt + attempt.durationMs;
      const finished = finish.run(
        next.state,
        counted === false ? 0 : 1,
        next.nextAttemptAt,
        next.lastError,
        finishedAt,
        rowId,
        claimToken,
      );
      if (finished.changes === 0) {
        continue;
      }
      insertAttempt.run(
        rowId,
        rowId,
        attempt.startedAt,
        attempt.durationMs,
        attempt.outcome,
        attempt.statusCode,
        attempt.detail,
      );
      if (next.state === 'delivered') references.write(rowId, refs, finishedAt);
      applied += 1;
    }
    return applied;
  });
  const releaseClaims = db.transaction(
    (claims: readonly { deliveryId: string; claimToken: string; nextAttemptAt: number }[]) => {
      for (const { deliveryId, claimToken, nextAttemptAt } of claims) {
        const rowId = parseDeliveryId(deliveryId);
        if (rowId !== undefined) release.run(nextAttemptAt, rowId, claimToken);
      }
    },
  );
  const replay = db.transaction((selection: ReplaySelection, now: number): string[] => {
    const replayable = replayableSql(selection.includeDelivered);
    if ('ids' in selection) {
      const requeue = db
        .prepare<{ now: number; rowId: number }, string>(
          `${REQUEUE} WHERE id = @rowId AND ${replayable} RETURNING 'dlv_' || id`,
        )
        .pluck();
      return deliveryRowIds(selection.ids).flatMap((rowId) => requeue.all({ now, rowId }));
    }
    const { where, params } = deliveryFilterSql(selection.filter, [replayable]);
    const limit =
      selection.filter.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(selection.filter.limit))}`;
    const named = Object.fromEntries(params.map((value, index) => [`p${index}`, value]));
    let index = 0;
    const whereNamed = where.replace(/\?/g, () => `@p${index++}`);
    return db
      .prepare<Record<string, string | number>, string>(
        `${REQUEUE} WHERE id IN (SELECT id FROM deliveries ${whereNamed} ORDER BY id${limit}) RETURNING 'dlv_' || id`,
      )
      .pluck()
      .all({ ...named, now });
  });

  return {
    claimDue,
    recordAttempts: (records: readonly AttemptRecord[]) => recordAttempts.immediate(records),
    releaseClaims: (claims: readonly { deliveryId: string; claimToken: string; nextAttemptAt: number }[]) =>
      releaseClaims.immediate(claims),
    releaseAllClaims: (now: number) => releaseAll.run(now).changes,
    nextDueAt: (target: string) => nextDue.get(target) ?? undefined,
    replay: (selection: ReplaySelection, now: number) => replay.immediate(selection, now).sort(compareIds),
    lastDeliveryId: () => lastDeliveryId.get() ?? null,
    /** The next `rows` deliveries after `after`, up to `last`, counted (count-in-slices.ts). */
    countSlice(after: number, last: number, rows: number): { counts: DeliveryCount[]; through: number | null } {
      const end = sliceEnd.get(after, rows) ?? null;
      if (end === null) return { counts: [], through: null };
      const through = Math.min(end, last);
      return { counts: countSlice.all(after, through), through };
    },
    pendingTargets: () => pendingTargets.all(),
    findReferences: (filter: ReferenceFilter) => references.find(filter),
    deadLetterTarget: (target: string, reason: string, now: number) =>
      deadLetterTarget.run(reason, now, target).changes,
    getDelivery(deliveryId: string): StoredDelivery | undefined {
      const rowId = parseDeliveryId(deliveryId);
      const row = rowId === undefined ? undefined : getDelivery.get(rowId);
      return row === undefined ? undefined : toStoredDelivery(row);
    },
    listAttempts(deliveryId: string): StoredAttempt[] {
      const rowId = parseDeliveryId(deliveryId);
      return rowId === undefined ? [] : listAttempts.all(rowId).map((row) => ({ deliveryId, ...row }));
    },
    findDeliveries(filter: DeliveryFilter): StoredDelivery[] {
      const { where, params } = deliveryFilterSql(filter);
      const limit = Math.max(0, Math.floor(filter.limit ?? DEFAULT_LIMIT));
      const direction = filter.order === 'newest' ? 'DESC' : 'ASC';
      return db
        .prepare<(string | number)[], StoredDelivery>(
          `SELECT ${LISTED_COLUMNS} FROM deliveries ${where}
           ORDER BY created_at ${direction}, deliveries.id ${direction} LIMIT ?`,
        )
        .all(...params, limit)
        .map(toStoredDelivery);
    },
  };
}

function compareIds(a: string, b: string): number {
  return (parseDeliveryId(a) ?? 0) - (parseDeliveryId(b) ?? 0);
}

export type SqliteDeliveries = ReturnType<typeof createSqliteDeliveries>;
