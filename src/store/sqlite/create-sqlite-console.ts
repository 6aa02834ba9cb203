import type Database from 'better-sqlite3';
import type { ChangePosition, ConsoleJournal, EventsPerMinute, TargetHealth } from '../console-journal.js';
import { CONSOLE_SQL, firstEventIdAt } from '../console-sql.js';
import { minuteOf } from '../event-count-buckets.js';
import { DELIVERY_STATES } from '../delivery-state.js';
import { toStoredDelivery } from '../key-order-sql.js';
import type { EventFilter, StoredDelivery } from '../store.js';
import { eventFilterSql } from './event-filter-sql.js';
import { parseDeliveryId } from './parse-delivery-id.js';
import { LISTED_COLUMNS } from './prepare-sqlite-statements.js';

type Sync<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never };

/** The console's reads (ConsoleJournal) on SQLite; see console-sql.ts for the shared SQL and its indexes. */
export function createSqliteConsole(db: Database.Database): Sync<ConsoleJournal> {
  const perMinute = db.prepare<number[], EventsPerMinute>(CONSOLE_SQL.eventsPerMinute);
  const countByState = db.prepare<[string, number], number>(CONSOLE_SQL.countByStateSince).pluck();
  // One pass over the pending and dead deliveries (deliveries_by_state). With a single max(), SQLite takes the
  // bare column last_error from the row holding it: https://www.sqlite.org/lang_select.html#bareagg
  const health = db.prepare<[], TargetHealth>(
    `SELECT target, sum(state = 'pending') AS pending, sum(state = 'dead') AS dead,
       sum(state = 'pending' AND attempts > 0) AS retrying, last_error AS lastError,
       max(CASE WHEN last_error IS NOT NULL THEN updated_at END) AS lastErrorAt
     FROM deliveries WHERE state IN ('pending', 'dead') GROUP BY target ORDER BY target`,
  );
  const changed = db.prepare<[number, number, number, number], StoredDelivery>(
    `SELECT ${LISTED_COLUMNS} FROM deliveries WHERE (updated_at, id) > (?, ?) AND updated_at < ?
     ORDER BY updated_at, deliveries.id LIMIT ?`,
  );
  const latestEvent = db.prepare<[string], string>(CONSOLE_SQL.latestEvent).pluck();
  const latestDelivery = db.prepare<[number], { updatedAt: number; id: string }>(
    `SELECT updated_at AS updatedAt, 'dlv_' || id AS id FROM deliveries WHERE updated_at < ?
     ORDER BY updated_at DESC, deliveries.id DESC LIMIT 1`,
  );
  return {
    eventIdAt(filter: EventFilter, offset: number): string | undefined {
      const { where, params } = eventFilterSql(filter);
      return db
        .prepare<(string | number)[], string>(
          `SELECT events.id FROM events ${where}
           ORDER BY events.id ${filter.order === 'newest' ? 'DESC' : 'ASC'} LIMIT 1 OFFSET ?`,
        )
        .pluck()
        .get(...params, offset);
    },
    eventsPerMinute: (since: number, bucketMs = 60_000) => {
      const first = minuteOf(since);
      return perMinute.all(first, first, bucketMs, bucketMs, first);
    },
    countDeliveriesByState(since: number) {
      return DELIVERY_STATES.map((state) => ({ state, count: countByState.get(state, since) ?? 0 })).filter(
        (row) => row.count > 0,
      );
    },
    targetHealth: (): TargetHealth[] =>
      health.all().map((row) => ({ ...row, lastError: row.lastErrorAt === null ? null : row.lastError })),
    findChangedDeliveries(after: { updatedAt: number; id: string }, before: number, limit: number): StoredDelivery[] {
      return changed.all(after.updatedAt, parseDeliveryId(after.id) ?? 0, before, limit).map(toStoredDelivery);
    },
    latestChange(before: number): ChangePosition {
      const eventId = latestEvent.get(firstEventIdAt(before)) ?? null;
      return { eventId, delivery: latestDelivery.get(before) ?? null };
    },
  };
}
