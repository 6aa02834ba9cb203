import type Database from 'better-sqlite3';
import { newId } from '../new-id.js';
import type { DigestBuilder, DueDigest, GroupCheck } from '../digest-records.js';
import { eventCountBuckets } from '../event-count-buckets.js';
import { createSqliteDigestCounts } from './create-sqlite-digest-counts.js';
import { dedupeKey } from './dedupe-key.js';
import { SQLITE_WRITER, type SqliteEventRow, type SqliteStatements } from './prepare-sqlite-statements.js';

const EVENT_COLUMNS = `events.id, source, kind, severity, occurred_at AS occurredAt, received_at AS receivedAt, body,
  lower(hex(body_sha256)) AS bodySha256, rules_version AS rulesVersion, matched_routes AS matchedRoutes`;

/** Digests (migration 4) in the SQLite journal: grouping at ingest, and sending a due digest. */
export function createSqliteDigests(db: Database.Database, statements: SqliteStatements) {
  const open = db
    .prepare<[target: string, key: string], string>(
      `SELECT id FROM digests WHERE target = ? AND group_key = ? AND state = 'open'`,
    )
    .pluck();
  const lastSent = db
    .prepare<[target: string, key: string], number | null>(
      `SELECT max(sent_at) FROM digests WHERE target = ? AND group_key = ? AND state = 'sent'`,
    )
    .pluck();
  const insert = db.prepare<[Record<string, unknown>]>(
    `INSERT INTO digests (id, route, target, group_key, max_events, first_at, due_at, first_delivery)
     VALUES (@id, @route, @target, @key, @maxEvents, @at, @due, (SELECT coalesce(max(id), 0) FROM deliveries))`,
  );
  const counts = createSqliteDigestCounts(db);
  const due = db
    .prepare<[now: number, limit: number], string>(
      `SELECT id FROM digests WHERE state = 'open' AND due_at <= ? ORDER BY due_at, id LIMIT ?`,
    )
    .pluck();
  const get = db.prepare<[id: string, now: number], DueDigest & { firstDelivery: number }>(
    `SELECT id, route, target, group_key AS groupKey, count, max_events AS maxEvents, first_at AS firstAt,
       first_delivery AS firstDelivery
     FROM digests WHERE id = ? AND state = 'open' AND due_at <= ?`,
  );
  // Migration 7: from the digest's first possible delivery on, through the index of grouped deliveries.
  const held = db.prepare<[first: number, id: string, limit: number], SqliteEventRow>(
    `SELECT ${EVENT_COLUMNS} FROM deliveries INDEXED BY deliveries_grouped JOIN events ON events.id = deliveries.event_id
     WHERE deliveries.state = 'grouped' AND deliveries.id > ? AND deliveries.held_by = ?
     ORDER BY deliveries.id LIMIT ?`,
  );
  const markSent = db.prepare<[now: number, eventId: string, count: number, id: string]>(
    `UPDATE digests SET state = 'sent', sent_at = ?, event_id = ?, count = ? WHERE id = ?`,
  );
  const send = db.transaction((id: string, now: number, build: DigestBuilder): string | undefined => {
    const row = get.get(id, now);
    if (row === undefined) return undefined;
    const digest = { ...row, count: row.count + counts.uncounted(id) };
    const events = held
      .all(digest.firstDelivery, id, digest.maxEvents)
      .map((row) => ({ ...row, matchedRoutes: JSON.parse(row.matchedRoutes) as string[] }));
    const event = build(digest, events);
    const bodySha256 = Buffer.from(event.bodySha256, 'hex');
    const matchedRoutes = JSON.stringify(event.matchedRoutes);
    statements.insertEvent.run({
      ...event,
      bodySha256,
      matchedRoutes,
      title: event.title ?? null,
      dedupeKey: dedupeKey(bodySha256),
    });
    // A digest is an event of the journal: the console's events per minute count it as ingest counts the others.
    for (const b of eventCountBuckets([event])) {
      statements.countEvents.run(b.minute, b.kind, b.severity, SQLITE_WRITER, b.count);
    }
    const { lastInsertRowid } = statements.insertPendingDelivery.run({
      eventId: event.id,
      target: digest.target,
      at: now,
      key: null, // a digest stands alone: no order per key
    });
    markSent.run(now, event.id, digest.count, id);
    return `dlv_${String(lastInsertRowid)}`;
  });

  // One writer per SQLite journal: the open digest of each target and key is remembered, rather than read per
  // grouped delivery (by target, then key: no string made per delivery to look one up), and joins are counted
  // in memory (create-sqlite-digest-counts.ts).
  const openIds = new Map<string, Map<string, string>>();
  let remembered = 0;
  const forgetOpen = (): void => {
    openIds.clear();
    remembered = 0;
  };
  return {
    /** In the ingest transaction: the digest a grouped delivery joins (opened when none is). */
    join(target: string, at: number, check: GroupCheck): string {
      let byKey = openIds.get(target);
      let id = byKey?.get(check.key);
      if (id === undefined) {
        id = open.get(target, check.key);
        if (id === undefined) {
          const previous = lastSent.get(target, check.key) ?? Number.NEGATIVE_INFINITY;
          id = check.digestId ?? newId('dig_', at);
          const dueAt = Math.max(at + check.waitMs, previous + check.intervalMs);
          insert.run({ id, route: check.route, target, key: check.key, maxEvents: check.maxEvents, at, due: dueAt });
        }
        // Bounded by the digests open at once; a flood of keys starts over rather than growing without end.
        if (remembered >= 10_000) {
          forgetOpen();
          byKey = undefined;
        }
        if (byKey === undefined) openIds.set(target, (byKey = new Map()));
        byKey.set(check.key, id);
        remembered += 1;
      }
      counts.joined(id);
      return id;
    },
    /** At the end of the ingest transaction, whose last event arrived at `at`. */
    endOfGroup: (at: number): void => counts.endOfGroup(at),
    /** After a rolled-back ingest transaction (the digests it opened are gone). */
    rolledBack(): void {
      forgetOpen();
      counts.rolledBack();
    },
    findDueDigests: (now: number, limit: number): string[] => due.all(now, limit),
    sendDigest(id: string, now: number, build: DigestBuilder): string | undefined {
      // The digest sent is no longer open: the next event of its key opens another.
      forgetOpen();
      const sent = send.immediate(id, now, build);
      if (sent !== undefined) counts.sent(id);
      return sent;
    },
  };
}

export type SqliteDigests = ReturnType<typeof createSqliteDigests>;
