import type Database from 'better-sqlite3';
import { createThrottleLedger, type ThrottleLedger } from '../../noise/throttle-ledger.js';
import type { IngestItem, IngestResult, ThrottleCheck } from '../store.js';
import type { SqliteDigests } from './create-sqlite-digests.js';
import type { SqliteStatements } from './prepare-sqlite-statements.js';

export interface SqliteIngest {
  (items: readonly IngestItem[]): IngestResult[];
  /** The throttle decisions kept in memory: cleared when deliveries change state outside ingest (a replay). */
  readonly throttles: ThrottleLedger;
}

/**
 * The group-commit transaction: all items in one IMMEDIATE transaction, in order, so that a duplicate inside
 * the same group sees the event inserted before it. IMMEDIATE takes the write lock up front: a deferred
 * transaction that reads (the dedupe lookup) and then writes can fail with SQLITE_BUSY_SNAPSHOT in WAL mode
 * without waiting for the busy timeout. https://www.sqlite.org/lang_transaction.html
 */
export function createSqliteIngest(
  db: Database.Database,
  statements: SqliteStatements,
  digests: Pick<SqliteDigests, 'join'>,
): SqliteIngest {
  // One writer per SQLite journal (the daemon holds its lock), so throttle counts can live in memory: reading
  // them per delivery was most of what throttles cost at ingest (bench/README.md, noise control).
  const throttles = createThrottleLedger((check, since) => seedThrottle(statements, check, since));
  const ingestOne = (item: IngestItem): IngestResult => {
    const { event } = item;
    const bodySha256 = Buffer.from(event.bodySha256, 'hex');
    const originalId = statements.findDuplicate.get(event.source, bodySha256, item.dedupeSince);
    if (originalId !== undefined) return { duplicate: true, eventId: originalId, deliveries: 0 };
    statements.insertEvent.run({ ...event, bodySha256, matchedRoutes: JSON.stringify(event.matchedRoutes) });
    item.targets.forEach((target, index) => {
      // Stamped with the event's receipt time, not "now", so that a delivery is due from when the event arrived.
      const hold = item.holds?.[index];
      const throttle = item.throttles?.[index];
      const group = item.groups?.[index];
      const row = { eventId: event.id, target, at: event.receivedAt };
      if (hold) statements.insertHeldDelivery.run({ ...row, state: hold.state, heldBy: hold.by });
      else if (group) {
        statements.insertHeldDelivery.run({ ...row, state: 'grouped', heldBy: digests.join(target, row.at, group) });
      } else if (throttle) {
        const { suppressed, count } = throttles.decide(throttle, row.at);
        const held = suppressed ? { state: 'suppressed', heldBy: throttle.by } : { state: 'pending', heldBy: null };
        statements.insertThrottledDelivery.run({ ...row, ...held, key: throttle.key, count });
      } else statements.insertPendingDelivery.run(row);
    });
    return { duplicate: false, eventId: event.id, deliveries: item.targets.length };
  };
  const ingestAll = db.transaction((items: readonly IngestItem[]) => items.map(ingestOne));
  const ingest = (items: readonly IngestItem[]): IngestResult[] => {
    try {
      return ingestAll.immediate(items);
    } catch (error) {
      // The ledger counted deliveries the rollback took back: read the keys from the journal again.
      throttles.clear();
      throw error;
    }
  };
  return Object.assign(ingest, { throttles });
}

function seedThrottle(statements: SqliteStatements, check: ThrottleCheck, since: number) {
  const sentAt = statements.throttleSentSince.all(check.key, since, check.max).reverse();
  const lastSentAt = sentAt.at(-1) ?? statements.throttleLastSentAt.get(check.key) ?? 0;
  return { sentAt, suppressed: statements.throttleSuppressedSince.get(check.key, lastSentAt) ?? 0 };
}
