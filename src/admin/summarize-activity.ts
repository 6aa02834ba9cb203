/** What the daemon's counters say happened since it started; `summarizeActivity` takes the difference. */
export interface ActivityTotals {
  /** Events accepted and journaled. */
  readonly received: number;
  readonly duplicates: number;
  /** Webhooks refused, whatever the reason (bad signature, too old, journal unavailable...). */
  readonly rejected: number;
  /** Delivery attempts that delivered. */
  readonly delivered: number;
  /** Delivery attempts that failed and will be retried. */
  readonly failed: number;
  /** Delivery attempts after which the delivery was dead-lettered. */
  readonly dead: number;
  /** Deliveries held back at ingest (silenced, muted, suppressed, grouped). */
  readonly held: number;
}

export type ActivitySummary = { readonly seconds: number } & ActivityTotals;

/**
 * The fields of the periodic `activity summary` log line: what happened between two readings of the totals,
 * `seconds` apart; undefined when nothing did, so that an idle daemon writes no line.
 */
export function summarizeActivity(
  before: ActivityTotals,
  after: ActivityTotals,
  seconds: number,
): ActivitySummary | undefined {
  const delta = {
    received: after.received - before.received,
    duplicates: after.duplicates - before.duplicates,
    rejected: after.rejected - before.rejected,
    delivered: after.delivered - before.delivered,
    failed: after.failed - before.failed,
    dead: after.dead - before.dead,
    held: after.held - before.held,
  };
  return Object.values(delta).every((count) => count === 0) ? undefined : { seconds: Math.round(seconds), ...delta };
}
