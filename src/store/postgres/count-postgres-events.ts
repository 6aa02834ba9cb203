import type pg from 'pg';
import { eventCountBuckets } from '../event-count-buckets.js';
import type { StoredEvent } from '../store.js';

const byKey = (a: { minute: number; kind: string; severity: string }, b: typeof a): number =>
  a.minute - b.minute || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || (a.severity < b.severity ? -1 : 1);

/** Buckets in the one order every writer adds them in (minute, kind, severity). */
export const sortBuckets = <B extends { minute: number; kind: string; severity: string }>(buckets: B[]): B[] =>
  buckets.sort(byKey);

/**
 * In an ingest (or digest) transaction: adds `events` to the console's events per minute (migration 7), under
 * this process's `writer`. Each instance has rows of its own, so instances ingesting at once never wait on each
 * other's row locks (a shared row would serialise their commits); the overview sums over writers. A process
 * commits one ingest group at a time (group-commit.ts), so only a digest sent meanwhile may wait on its rows.
 * One statement for all buckets, in a fixed order, so two transactions of a process cannot deadlock on them.
 */
export async function countPostgresEvents(
  client: pg.PoolClient,
  writer: string,
  events: readonly Pick<StoredEvent, 'receivedAt' | 'kind' | 'severity'>[],
): Promise<void> {
  const buckets = sortBuckets(eventCountBuckets(events));
  if (buckets.length === 0) return;
  await client.query(
    `INSERT INTO event_counts (minute, kind, severity, writer, count)
     SELECT minute, kind, severity, $4, count
     FROM unnest($1::bigint[], $2::text[], $3::text[], $5::bigint[]) WITH ORDINALITY AS b (minute, kind, severity, count, n)
     ORDER BY n
     ON CONFLICT (minute, kind, severity, writer) DO UPDATE SET count = event_counts.count + excluded.count`,
    [
      buckets.map((b) => b.minute),
      buckets.map((b) => b.kind),
      buckets.map((b) => b.severity),
      writer,
      buckets.map((b) => b.count),
    ],
  );
}
