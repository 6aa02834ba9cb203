import type pg from 'pg';
import { eventCountBuckets } from '../event-count-buckets.js';
import type { NewEvent, StoredEvent } from '../store.js';
import { prepared } from './prepared.js';
import { sortBuckets } from './count-postgres-events.js';

/** A delivery that goes in as it is: pending, or held (silenced, ...) with its state and reason. */
export interface PlainDelivery {
  readonly event: Pick<StoredEvent, 'id' | 'receivedAt'>;
  readonly target: string;
  readonly key: string | null;
  readonly hold: { readonly state: string; readonly by: string } | null;
}

// Data-modifying CTEs all run, referenced or not, on one snapshot; the deliveries' foreign keys are checked at
// the end of the statement, when the events of the first CTE are in. Counts are added in a fixed order (ORDER BY
// n), so two transactions of one writer cannot deadlock on them (count-postgres-events.ts).
const insertRows = prepared(
  'ingest_rows',
  `WITH new_events AS (
     INSERT INTO events (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version,
       matched_routes, title)
     SELECT id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version, routes::jsonb, title
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bytea[], $8::bytea[],
       $9::text[], $10::text[], $11::text[])
       AS e (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version, routes, title)
   ), counts AS (
     INSERT INTO event_counts (minute, kind, severity, writer, count)
     SELECT minute, kind, severity, $12, count
     FROM unnest($13::bigint[], $14::text[], $15::text[], $16::bigint[]) WITH ORDINALITY AS b (minute, kind, severity, count, n)
     ORDER BY n
     ON CONFLICT (minute, kind, severity, writer) DO UPDATE SET count = event_counts.count + excluded.count
   )
   INSERT INTO deliveries (event_id, target, state, held_by, correlation_key, next_attempt_at, created_at, updated_at,
     retry_from)
   SELECT event_id, target, coalesce(state, 'pending'), held_by, key, at, at, at, at
   FROM unnest($17::text[], $18::text[], $19::bigint[], $20::text[], $21::text[], $22::text[])
     WITH ORDINALITY AS d (event_id, target, at, state, held_by, key, n)
   ORDER BY n`,
);

/**
 * In the ingest transaction, one statement: the group's new events, their counts in the console's events per
 * minute (under this process's `writer`), and their pending or held deliveries, stamped with the event's
 * receipt time (not "now"), so that a delivery is due from when its event arrived. Throttled and grouped
 * deliveries are decided after, one by one (create-postgres-ingest.ts).
 */
export async function insertIngestRows(
  client: pg.PoolClient,
  writer: string,
  events: readonly NewEvent[],
  deliveries: readonly PlainDelivery[],
): Promise<void> {
  const buckets = sortBuckets(eventCountBuckets(events));
  await client.query(
    insertRows([
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
      writer,
      buckets.map((b) => b.minute),
      buckets.map((b) => b.kind),
      buckets.map((b) => b.severity),
      buckets.map((b) => b.count),
      deliveries.map((d) => d.event.id),
      deliveries.map((d) => d.target),
      deliveries.map((d) => d.event.receivedAt),
      deliveries.map((d) => d.hold?.state ?? null),
      deliveries.map((d) => d.hold?.by ?? null),
      deliveries.map((d) => d.key),
    ]),
  );
}
