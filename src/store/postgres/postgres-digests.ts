import type pg from 'pg';
import { newId } from '../new-id.js';
import type { DigestBuilder, DueDigest, GroupCheck } from '../digest-records.js';
import type { StoredEvent } from '../store.js';
import { countPostgresEvents } from './count-postgres-events.js';
import { groupLockParts, lockKey } from './dedupe-lock-keys.js';
import { POSTGRES_COLUMNS } from './postgres-columns.js';
import { prepared } from './prepared.js';
import { withPostgresTransaction } from './with-postgres-transaction.js';

// The statements a grouped delivery runs in the ingest transaction, prepared: one set per grouped delivery.
const openDigest = prepared(
  'group_open',
  `SELECT id FROM digests WHERE target = $1 AND group_key = $2 AND state = 'open'`,
);
const newDigest = prepared(
  'group_new',
  `INSERT INTO digests (id, route, target, group_key, max_events, first_at, due_at)
   SELECT $1, $2, $3, $4, $5, $6,
     greatest($6::bigint + $7::bigint, coalesce(max(sent_at) + $8::bigint, 0))
   FROM digests WHERE target = $3 AND group_key = $4 AND state = 'sent'`,
);
const countDigest = prepared('group_count', 'UPDATE digests SET count = count + 1 WHERE id = $1');
const groupedDelivery = prepared(
  'group_delivery',
  `INSERT INTO deliveries (event_id, target, state, held_by, next_attempt_at, created_at, updated_at, retry_from,
     correlation_key)
   VALUES ($1, $2, 'grouped', $3, $4, $4, $4, $4, $5)`,
);

/**
 * In the ingest transaction, which already holds the advisory lock of this target and key: the digest a
 * grouped delivery joins (opened when none is), counted, and the delivery written `grouped`.
 */
export async function insertGrouped(
  client: pg.PoolClient,
  delivery: { eventId: string; target: string; at: number; key?: string | null },
  check: GroupCheck,
): Promise<void> {
  const { target, at } = delivery;
  const found = await client.query<{ id: string }>(openDigest([target, check.key]));
  let id = found.rows[0]?.id;
  if (id === undefined) {
    id = check.digestId ?? newId('dig_', at);
    await client.query(
      newDigest([id, check.route, target, check.key, check.maxEvents, at, check.waitMs, check.intervalMs]),
    );
  }
  await client.query(countDigest([id]));
  await client.query(groupedDelivery([delivery.eventId, target, id, at, delivery.key ?? null]));
}

/** Digests on PostgreSQL: which are due, and sending one (once, whichever instance gets there first). */
export function createPostgresDigests(pool: pg.Pool, namespace: string, writer: string) {
  return {
    async findDueDigests(now: number, limit: number): Promise<string[]> {
      const result = await pool.query<{ id: string }>(
        `SELECT id FROM digests WHERE state = 'open' AND due_at <= $1 ORDER BY due_at, id LIMIT $2`,
        [now, limit],
      );
      return result.rows.map((row) => row.id);
    },
    async sendDigest(id: string, now: number, build: DigestBuilder): Promise<string | undefined> {
      const first = await pool.query<{ target: string; groupKey: string }>(
        `SELECT target, group_key AS "groupKey" FROM digests WHERE id = $1`,
        [id],
      );
      const where = first.rows[0];
      if (where === undefined) return undefined;
      return withPostgresTransaction(pool, async (client) => {
        // The same lock ingest takes to join this digest: nothing joins it while it is being sent.
        await client.query('SELECT pg_advisory_xact_lock($1)', [
          lockKey(namespace, groupLockParts(where.target, where.groupKey)),
        ]);
        const found = await client.query<DueDigest>(
          `SELECT id, route, target, group_key AS "groupKey", count, max_events AS "maxEvents", first_at AS "firstAt"
           FROM digests WHERE id = $1 AND state = 'open' AND due_at <= $2`,
          [id, now],
        );
        const digest = found.rows[0];
        if (digest === undefined) return undefined;
        const events = await client.query<StoredEvent>(
          `SELECT ${POSTGRES_COLUMNS.event} FROM events WHERE id IN (
             SELECT event_id FROM deliveries WHERE held_by = $1 AND state = 'grouped' ORDER BY id LIMIT $2
           ) ORDER BY received_at, id`,
          [id, digest.maxEvents],
        );
        const event = build(digest, events.rows);
        await client.query(
          `INSERT INTO events (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version,
             matched_routes, title)
           VALUES ($1, $2, $3, $4, $5, $6, $7, decode($8, 'hex'), $9, $10::jsonb, $11)`,
          [
            event.id,
            event.source,
            event.kind,
            event.severity,
            event.occurredAt,
            event.receivedAt,
            event.body,
            event.bodySha256,
            event.rulesVersion,
            JSON.stringify(event.matchedRoutes),
            event.title ?? null,
          ],
        );
        // A digest is an event of the journal: the console's events per minute count it as ingest counts the others.
        await countPostgresEvents(client, writer, [event]);
        const inserted = await client.query<{ id: string }>(
          `INSERT INTO deliveries (event_id, target, next_attempt_at, created_at, updated_at, retry_from)
           VALUES ($1, $2, $3, $3, $3, $3) RETURNING 'dlv_' || id AS id`,
          [event.id, digest.target, now],
        );
        await client.query(`UPDATE digests SET state = 'sent', sent_at = $1, event_id = $2 WHERE id = $3`, [
          now,
          event.id,
          id,
        ]);
        return inserted.rows[0]?.id;
      });
    },
  };
}
