import type Database from 'better-sqlite3';
import { eventCountBuckets } from '../event-count-buckets.js';
import type { IngestItem, IngestResult } from '../store.js';
import { createSqliteThrottles } from './create-sqlite-throttles.js';
import { dedupeKey } from './dedupe-key.js';
import type { SqliteDigests } from './create-sqlite-digests.js';
import type { SqliteIncidents } from './create-sqlite-incidents.js';
import { SQLITE_WRITER, type SqliteStatements } from './prepare-sqlite-statements.js';

export interface SqliteIngest {
  /** One group, in its own transaction. */
  ingest(items: readonly IngestItem[]): IngestResult[];
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
  digests: Pick<SqliteDigests, 'join' | 'endOfGroup' | 'rolledBack'>,
  incidents: Pick<SqliteIncidents, 'record' | 'reached'>,
): SqliteIngest {
  const throttles = createSqliteThrottles(db);
  const ingestOne = (item: IngestItem): IngestResult => {
    const { event } = item;
    const bodySha256 = Buffer.from(event.bodySha256, 'hex');
    const hashKey = dedupeKey(bodySha256);
    const originalId = statements.findDuplicate.get(hashKey, item.dedupeSince, event.source, bodySha256);
    if (originalId !== undefined) return { duplicate: true, eventId: originalId, deliveries: 0 };
    // An object literal with exactly the statement's names, as for the deliveries below.
    statements.insertEvent.run({
      id: event.id,
      source: event.source,
      kind: event.kind,
      severity: event.severity,
      occurredAt: event.occurredAt,
      receivedAt: event.receivedAt,
      body: event.body,
      bodySha256,
      rulesVersion: event.rulesVersion,
      matchedRoutes: JSON.stringify(event.matchedRoutes),
      title: event.title ?? null,
      dedupeKey: hashKey,
    });
    let suppressedCount = 0;
    incidents.record(item);
    item.targets.forEach((target, index) => {
      // Stamped with the event's receipt time, not "now", so that a delivery is due from when the event arrived.
      const hold = item.holds?.[index];
      const throttle = item.throttles?.[index];
      const group = item.groups?.[index];
      // Parameters as object literals with exactly the statement's names: an object built by spreading another
      // made better-sqlite3's binding cost about 5 µs more per delivery (docs/decisions/noise-control-costs.md).
      const eventId = event.id;
      const at = event.receivedAt;
      const key = item.keys?.[index] ?? null;
      if (hold) statements.insertHeldDelivery.run({ eventId, target, at, key, state: hold.state, heldBy: hold.by });
      else if (group) {
        const heldBy = digests.join(target, at, group);
        statements.insertHeldDelivery.run({ eventId, target, at, key, state: 'grouped', heldBy });
      } else if (throttle) {
        const { suppressed, count } = throttles.decide(throttle, at);
        if (suppressed) suppressedCount += 1;
        const [state, heldBy] = suppressed ? ['suppressed', throttle.by] : ['pending', null];
        const throttleKey = throttle.key;
        statements.insertThrottledDelivery.run({ eventId, target, at, key, state, heldBy, throttleKey, count });
      } else statements.insertPendingDelivery.run({ eventId, target, at, key });
    });
    const followed = follow(item);
    const deliveries = item.targets.length + followed.length;
    return {
      duplicate: false,
      eventId: event.id,
      deliveries,
      ...(suppressedCount > 0 && { suppressed: suppressedCount }),
      ...(followed.length > 0 && { followed }),
    };
  };
  // The follow-ups of an update or resolve, to the targets its incident reached (src/lifecycle/follow-targets.ts).
  const follow = ({ event, incident, follow: candidates }: IngestItem): string[] => {
    if (incident === undefined || candidates === undefined) return [];
    const reached = incidents.reached(event.source, incident.key, event.id);
    const eventId = event.id;
    const at = event.receivedAt;
    const followed: string[] = [];
    for (const { target, key, hold } of candidates) {
      if (!reached.has(target)) continue;
      if (hold) statements.insertHeldDelivery.run({ eventId, target, at, key, state: hold.state, heldBy: hold.by });
      else statements.insertPendingDelivery.run({ eventId, target, at, key });
      followed.push(target);
    }
    return followed;
  };
  const ingestAll = db.transaction((items: readonly IngestItem[]) => {
    const results = items.map(ingestOne);
    // The console's events per minute (migration 8): one upsert per bucket of the new events, not one per event.
    const fresh = items.filter((item, index) => results[index]?.duplicate === false).map((item) => item.event);
    for (const b of eventCountBuckets(fresh))
      statements.countEvents.run(b.minute, b.kind, b.severity, SQLITE_WRITER, b.count);
    const lastAt = items.at(-1)?.event.receivedAt ?? 0;
    digests.endOfGroup(lastAt);
    throttles.afterGroup(lastAt);
    return results;
  });
  return {
    ingest(items) {
      try {
        return ingestAll.immediate(items);
      } catch (error) {
        // The throttle and digest decisions kept in memory are read from the journal again.
        throttles.rolledBack();
        digests.rolledBack();
        throw error;
      }
    },
  };
}
