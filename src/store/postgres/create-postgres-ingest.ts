import type pg from 'pg';
import type { IngestItem, IngestResult, ThrottleCheck } from '../store.js';
import { bigintArrayLiteral } from './bigint-array-literal.js';
import { dedupeLockKeys } from './dedupe-lock-keys.js';
import { insertGrouped } from './postgres-digests.js';
import { insertIngestRows } from './insert-ingest-rows.js';
import { insertFollowUps } from './insert-follow-ups.js';
import { prepared } from './prepared.js';
import { recordPostgresIncidents } from './postgres-incidents.js';
import { resolveDuplicates, type Original } from './resolve-duplicates.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

// The subquery's ORDER BY fixes the order the locks are taken in (a subquery with ORDER BY is not flattened).
// It goes with the BEGIN, in one round trip, so its keys are written into it.
const lockKeys = (keys: readonly string[]) =>
  `SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT k FROM unnest(${bigintArrayLiteral(keys)}) AS k ORDER BY k) AS keys`;
const originals = prepared(
  'ingest_originals',
  `SELECT i.n, o.id, o.received_at AS "receivedAt"
   FROM unnest($1::text[], $2::bytea[], $3::bigint[]) WITH ORDINALITY AS i (source, sha, since, n)
   LEFT JOIN LATERAL (
     SELECT id, received_at FROM events e
     WHERE e.source = i.source AND e.body_sha256 = i.sha AND e.received_at >= i.since
     ORDER BY received_at, id LIMIT 1
   ) AS o ON true`,
);

/**
 * The group-commit transaction: the whole group in one transaction, in a fixed number of statements whatever
 * its size (arrays through unnest rather than one INSERT per row): BEGIN with the locks, the originals, one
 * statement for the events, their counts and their deliveries (insert-ingest-rows.ts), COMMIT; plus one
 * statement per throttled or grouped delivery, each of which must see the ones before it.
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
    withPostgresTransaction(
      pool,
      async (client) => {
        const stored = await findOriginals(client, items);
        const { results, fresh } = resolveDuplicates(items, stored);
        const all = fresh.flatMap(({ event, targets, keys, holds, throttles, groups }) =>
          targets.map((target, index) => {
            const hold = holds?.[index] ?? null;
            const group = hold === null ? (groups?.[index] ?? null) : null;
            const throttle = hold === null && group === null ? (throttles?.[index] ?? null) : null;
            return { event, target, key: keys?.[index] ?? null, hold, group, throttle };
          }),
        );
        if (fresh.length > 0) {
          await insertIngestRows(
            client,
            writer,
            fresh.map((item) => item.event),
            all.filter((d) => d.throttle === null && d.group === null),
          );
          await recordPostgresIncidents(client, fresh);
        }
        // After the others: each decision is its own statement, so it sees the deliveries inserted before it.
        const suppressed = new Map<string, number>();
        for (const { event, target, key, throttle, group } of all) {
          if (throttle !== null) {
            const at = event.receivedAt;
            if (await insertThrottled(client, { eventId: event.id, target, at, key }, throttle))
              suppressed.set(event.id, (suppressed.get(event.id) ?? 0) + 1);
          }
          if (group !== null)
            await insertGrouped(client, { eventId: event.id, target, at: event.receivedAt, key }, group);
        }
        const followed = await insertFollowUps(client, fresh);
        if (suppressed.size === 0 && followed.size === 0) return results;
        return results.map((r) => {
          if (r.duplicate) return r;
          const count = suppressed.get(r.eventId);
          const targets = followed.get(r.eventId);
          return {
            ...r,
            ...(count !== undefined && { suppressed: count }),
            ...(targets !== undefined && { followed: targets, deliveries: r.deliveries + targets.length }),
          };
        });
      },
      lockKeys(dedupeLockKeys(namespace, items)),
    );
}

const throttled = prepared(
  'ingest_throttled',
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
   FROM sent, held
   RETURNING state`,
);

/**
 * As SQLite's insertThrottled (create-sqlite-ingest.ts): suppressed when `max` were let through in the window.
 * Returns whether it was.
 */
async function insertThrottled(
  client: pg.PoolClient,
  { eventId, target, at, key }: { eventId: string; target: string; at: number; key: string | null },
  throttle: ThrottleCheck,
): Promise<boolean> {
  const values = [eventId, target, throttle.key, at, throttle.windowMs, throttle.max, throttle.by, key];
  const inserted = await client.query<{ state: string }>(throttled(values));
  return inserted.rows[0]?.state === 'suppressed';
}

/** Per item, the oldest stored event with its (source, body hash) received within its window. */
async function findOriginals(client: pg.PoolClient, items: readonly IngestItem[]): Promise<(Original | undefined)[]> {
  const { rows } = await client.query<{ n: number; id: string | null; receivedAt: number | null }>(
    originals([
      items.map((item) => item.event.source),
      items.map((item) => Buffer.from(item.event.bodySha256, 'hex')),
      items.map((item) => item.dedupeSince),
    ]),
  );
  const found: (Original | undefined)[] = items.map(() => undefined);
  for (const row of rows) {
    if (row.id !== null && row.receivedAt !== null) found[row.n - 1] = { id: row.id, receivedAt: row.receivedAt };
  }
  return found;
}
