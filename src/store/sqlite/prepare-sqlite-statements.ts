import type Database from 'better-sqlite3';
import { CONSOLE_SQL } from '../console-sql.js';
import { waitingColumns } from '../key-order-sql.js';
import type { StoredDelivery, StoredEvent } from '../store.js';

/** An `events` row with camelCase names; `matchedRoutes` is still JSON text. */
export type SqliteEventRow = Omit<StoredEvent, 'matchedRoutes'> & { matchedRoutes: string };

/** An `events` row as inserted: the body hash as its 32 bytes (see migration 1) and its dedupe key (10). */
export type SqliteNewEventRow = Omit<SqliteEventRow, 'bodySha256'> & {
  bodySha256: Buffer;
  title: string | null;
  dedupeKey: number;
};

const EVENT_COLUMNS = `id, source, kind, severity, occurred_at AS occurredAt, received_at AS receivedAt, body,
  lower(hex(body_sha256)) AS bodySha256, rules_version AS rulesVersion, matched_routes AS matchedRoutes`;
export const DELIVERY_COLUMNS = `'dlv_' || id AS id, event_id AS eventId, target, state, attempts, next_attempt_at AS nextAttemptAt,
  last_error AS lastError, created_at AS createdAt, updated_at AS updatedAt, held_by AS heldBy,
  correlation_key AS correlationKey`;
/** Listings also say what a waiting delivery waits for (issue 14). */
export const LISTED_COLUMNS = `${DELIVERY_COLUMNS}, ${waitingColumns('deliveries', (name) => name)}`;

/** SQLite's journal has one daemon writing it (lock-sqlite-journal.ts): its counts need no per-process rows. */
export const SQLITE_WRITER = 'sqlite';

/** Every statement the store runs, prepared once per connection (after migrations, when the tables exist). */
export function prepareSqliteStatements(db: Database.Database) {
  return {
    // Oldest match first, so a duplicate always names the event that was actually delivered. The key only
    // narrows the search (dedupe-key.ts): source and the whole hash are compared on the row. The index gives
    // this order itself; no tie-break by id, which cost a sort per lookup: two matches received in the same
    // millisecond cannot both be stored (the second was a duplicate), and the index keeps insert order anyway.
    findDuplicate: db
      .prepare<[key: number, since: number, source: string, bodySha256: Buffer], string>(
        `SELECT id FROM events WHERE dedupe_key = ? AND received_at >= ? AND source = ? AND body_sha256 = ?
         ORDER BY received_at LIMIT 1`,
      )
      .pluck(),
    insertEvent: db.prepare<[SqliteNewEventRow]>(
      `INSERT INTO events (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version,
         matched_routes, title, dedupe_key)
       VALUES (@id, @source, @kind, @severity, @occurredAt, @receivedAt, @body, @bodySha256, @rulesVersion,
         @matchedRoutes, @title, @dedupeKey)`,
    ),
    // Adds to the console's events per minute (migration 8); the writer is always SQLITE_WRITER.
    countEvents: db.prepare<[minute: number, kind: string, severity: string, writer: string, count: number]>(
      CONSOLE_SQL.countEvents,
    ),
    // New deliveries are due at once; id, state and attempts take the column defaults (rowid, 'pending', 0).
    insertPendingDelivery: db.prepare<[{ eventId: string; target: string; at: number; key: string | null }]>(
      `INSERT INTO deliveries (event_id, target, correlation_key, next_attempt_at, created_at, updated_at, retry_from)
       VALUES (@eventId, @target, @key, @at, @at, @at, @at)`,
    ),
    // A held delivery (issue 12) is recorded in its final state and never claimed.
    insertHeldDelivery: db.prepare<
      [{ eventId: string; target: string; at: number; key: string | null; state: string; heldBy: string }]
    >(
      `INSERT INTO deliveries (event_id, target, correlation_key, state, held_by, next_attempt_at, created_at,
         updated_at, retry_from)
       VALUES (@eventId, @target, @key, @state, @heldBy, @at, @at, @at, @at)`,
    ),
    insertThrottledDelivery: db.prepare<
      [
        {
          eventId: string;
          target: string;
          at: number;
          state: string;
          heldBy: string | null;
          key: string | null;
          throttleKey: string;
          count: number;
        },
      ]
    >(
      `INSERT INTO deliveries (event_id, target, correlation_key, state, held_by, throttle_key, suppressed_count,
         next_attempt_at, created_at, updated_at, retry_from)
       VALUES (@eventId, @target, @key, @state, @heldBy, @throttleKey, @count, @at, @at, @at, @at)`,
    ),
    getEvent: db.prepare<[id: string], SqliteEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ?`),
    listDeliveries: db.prepare<[eventId: string], StoredDelivery>(
      `SELECT ${LISTED_COLUMNS} FROM deliveries WHERE event_id = ? ORDER BY target`,
    ),
    // Prepared once: db.pragma() prepares its statement on every call, which cost ~11% of ingest's CPU when
    // asked before every event (create-silence-registry.ts).
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    ping: db.prepare<[], { ok: number }>('SELECT 1 AS ok FROM schema_migrations LIMIT 1'),
    counts: db.prepare<[], { events: number; deliveries: number }>(
      'SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM deliveries) AS deliveries',
    ),
  };
}

export type SqliteStatements = ReturnType<typeof prepareSqliteStatements>;
