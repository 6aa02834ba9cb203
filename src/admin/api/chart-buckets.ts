/** The overview chart's width in bars: the console draws one per bucket. */
export const CHART_COLUMNS = 120;

export interface ChartBuckets {
  /** Start of the first bucket, ms (a whole minute). */
  readonly start: number;
  readonly bucketMinutes: number;
}

/**
 * Buckets of whole minutes covering the last `hours` up to the end of the current minute, at most
 * `CHART_COLUMNS` of them: the overview sums its counts into these (a 48-hour answer by minute was about
 * 50,000 rows and 5 MB of JSON with a million events), and the console's chart (chart-bars.ts) draws the same.
 */
export function chartBuckets(now: number, hours: number): ChartBuckets {
  const minutes = hours * 60;
  const bucketMinutes = Math.max(1, Math.ceil(minutes / CHART_COLUMNS));
  const end = Math.floor(now / 60_000) * 60_000 + 60_000;
  const count = Math.ceil(minutes / bucketMinutes);
  return { start: end - count * bucketMinutes * 60_000, bucketMinutes };
}
