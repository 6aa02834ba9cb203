import type { StoredEvent } from './store.js';

/** One row of `event_counts` to add: events received in `minute` (ms, a multiple of 60 000) of a kind and severity. */
export interface EventCountBucket {
  minute: number;
  kind: string;
  /** '' for events without a severity: a primary-key column cannot be null. */
  severity: string;
  count: number;
}

/** The minute (ms) an event received at `receivedAt` is counted in. */
export const minuteOf = (receivedAt: number): number => Math.floor(receivedAt / 60_000) * 60_000;

/**
 * The events of one ingest group counted by minute, kind and severity, so that the journal writes one row per
 * bucket rather than one per event (a group of 500 usually lands in a handful of buckets).
 */
export function eventCountBuckets(
  events: Iterable<Pick<StoredEvent, 'receivedAt' | 'kind' | 'severity'>>,
): EventCountBucket[] {
  const buckets = new Map<string, EventCountBucket>();
  for (const { receivedAt, kind, severity } of events) {
    const minute = minuteOf(receivedAt);
    const key = `${minute}\u0000${kind}\u0000${severity ?? ''}`;
    const bucket = buckets.get(key);
    if (bucket === undefined) buckets.set(key, { minute, kind, severity: severity ?? '', count: 1 });
    else bucket.count += 1;
  }
  return [...buckets.values()];
}
