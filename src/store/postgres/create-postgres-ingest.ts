import type pg from 'pg';
import type { IngestItem, IngestResult, ThrottleCheck } from '../store.js';
import { countPostgresEvents } from './count-postgres-events.js';
import { dedupeLockKeys } from './dedupe-lock-keys.js';
import { insertGrouped } from './postgres-digests.js';
import { resolveDuplicates, type Original } from './resolve-duplicates.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

/**
 * The group-commit transaction: the whole group in one transaction, in a fixed number of statements whatever
 * its size (arrays through unnest rather than one INSERT per row).
 *
 * Dedupe across instances: under READ COMMITTED, two transactions inserting the same body at once would each
 * miss the other's uncommitted row. A unique constraint cannot express "same (source, body hash) within a
 * window that differs per item", so each group first takes a transaction-level advisory lock per distinct
 * (source, body hash), in sorted order (no deadlocks), and only then looks for originals: a second ingest of
 * the same body waits for the first to commit, and its lookup, a new statement with a new snapshot, sees it.
 * The locks end with the transaction, even when the process dies. `writer` names this process's rows of
 * event_counts (count-postgres-events.ts). A group whose COMMIT outcome is unknown
 * (connection lost) fails as journal_unavailable; the sender's retry is then caught as a duplicate.
 */
export function createPostgresIngest(
  pool: pg.Pool,
  namespace: string,
  writer: string,
): (items: readonly IngestItem[]) => Promise<IngestResult[]> {
  return (items) =>
    withPostgresTransaction(pool, async (client) => {
      // The subquery's ORDER BY fixes the order the locks are taken in (a subquery with ORDER BY is not flattened).
      await client.query(
        'SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT k FROM unnest($1::bigint[]) AS k ORDER BY k) AS keys',
        [dedupeLockKeys(namespace, items)],
      );
      const stored = await findOriginals(client, items);
      const { results, fresh } = resolveDuplicates(items, stored);
      if (fresh.length > 0) await insertEvents(client, fresh);
      await countPostgresEvents(
        client,
        writer,
        fresh.map((item) => item.event),
      );
      const all = fresh.flatMap(({ event, targets, keys, holds, throttles, groups }) =>
        targets.map((target, index) => {
          const hold = holds?.[index] ?? null;
          const group = hold === null ? (groups?.[index] ?? null) : null;
          const throttle = hold === null && group === null ? (throttles?.[index] ?? null) : null;
          return { event, target, key: keys?.[index] ?? null, hold, group, throttle };
        }),
      );
      const deliveries = all.filter((d) => d.throttle === null && d.group === null);
      if (deliveries.length > 0) {
        // Stamped with the event's receipt time, not "now", so that a delivery is due from when the event arrived.
        await client.query(
          `INSERT INTO deliveries (event_id, target, state, held_by, correlation_key, next_attempt_at, created_at,
             updated_at, retry_from)
           SELECT event_id, target, coalesce(state, 'pending'), held_by, key, at, at, at, at
           FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[])
             WITH ORDINALITY AS d (event_id, target, at, state, held_by, key, n)
           ORDER BY n`,
          [
            deliveries.map((d) => d.event.id),
            deliveries.map((d) => d.target),
            deliveries.map((d) => d.event.receivedAt),
            deliveries.map((d) => d.hold?.state ?? null),
            deliveries.map((d) => d.hold?.by ?? null),
            deliveries.map((d) => d.key),
          ],
        );
      }
      // After the others: each decision is its own statement, so it sees the deliveries inserted before it.
      for (const { event, target, key, throttle, group } of all) {
        if (throttle !== null)
          await insertThrottled(client, { eventId: event.id, target, at: event.receivedAt, key }, throttle);
        if (group !== null)
          await insertGrouped(client, { eventId: event.id, target, at: event.receivedAt, key }, group);
      }
      return results;
    });
}

/** As SQLite's insertThrottled (create-sqlite-ingest.ts): suppressed when `max` were let through in the window. */
async function insertThrottled(
  client: pg.PoolClient,
  { eventId, target, at, key }: { eventId: string; target: string; at: number; key: string | null },
  throttle: ThrottleCheck,
): Promise<void> {
  await client.query(
    `WITH sent AS (
       SELECT count(*) AS n FROM (SELECT 1 FROM deliveries
         WHERE throttle_key = $3 AND created_at > $4::bigint - $5::bigint AND state <> 'suppressed' LIMIT $6) AS w
     ), last AS (
       SELECT coalesce((SELECT created_at FROM deliveries WHERE throttle_key = $3 AND state <> 'suppressed'
         ORDER BY created_at DESC LIMIT 1), 0) AS at
     ), held AS (
       SELECT count(*) AS n FROM deliveries, last
       WHERE throttle_key = $3 AND state = 'suppressed' AND created_at >= last.at
     )
     INSERT INTO deliveries (event_id, target, state, held_by, throttle_key, suppressed_count, next_attempt_at,
       created_at, updated_at, retry_from, correlation_key)
     SELECT $1, $2, CASE WHEN sent.n >= $6 THEN 'suppressed' ELSE 'pending' END,
       CASE WHEN sent.n >= $6 THEN $7 END, $3, CASE WHEN sent.n >= $6 THEN 0 ELSE held.n END, $4, $4, $4, $4, $8
     FROM sent, held`,
    [eventId, target, throttle.key, at, throttle.windowMs, throttle.max, throttle.by, key],
  );
}

/** Per item, the oldest stored event with its (source, body hash) received within its window. */
async function findOriginals(client: pg.PoolClient, items: readonly IngestItem[]): Promise<(Original | undefined)[]> {
  const { rows } = await client.query<{ n: number; id: string | null; receivedAt: number | null }>(
    `SELECT i.n, o.id, o.received_at AS "receivedAt"
     FROM unnest($1::text[], $2::bytea[], $3::bigint[]) WITH ORDINALITY AS i (source, sha, since, n)
     LEFT JOIN LATERAL (
       SELECT id, received_at FROM events e
       WHERE e.source = i.source AND e.body_sha256 = i.sha AND e.received_at >= i.since
       ORDER BY received_at, id LIMIT 1
     ) AS o ON true`,
    [
      items.map((item) => item.event.source),
      items.map((item) => Buffer.from(item.event.bodySha256, 'hex')),
      items.map((item) => item.dedupeSince),
    ],
  );
  const originals: (Original | undefined)[] = items.map(() => undefined);
  for (const row of rows) {
    if (row.id !== null && row.receivedAt !== null) originals[row.n - 1] = { id: row.id, receivedAt: row.receivedAt };
  }
  return originals;
}

async function insertEvents(client: pg.PoolClient, items: readonly IngestItem[]): Promise<void> {
  const events = items.map((item) => item.event);
  await client.query(
    `INSERT INTO events (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version,
       matched_routes, title)
     SELECT id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version, routes::jsonb, title
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bytea[], $8::bytea[],
       $9::text[], $10::text[], $11::text[])
       AS e (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version, routes, title)`,
    [
      events.map((e) => e.id),
      events.map((e) => e.source),
      events.map((e) => e.kind),
      events.map((e) => e.severity),
      events.map((e) => e.occurredAt),
      events.map((e) => e.receivedAt),
      events.map((e) => e.body),
      events.map((e) => Buffer.from(e.bodySha256, 'hex')),
      events.map((e) => e.rulesVersion),
      events.map((e) => JSON.stringify(e.matchedRoutes)),
      events.map((e) => e.title ?? null),
    ],
  );
}
