import type { MinuteCount } from '../api/api-types.js';

/** Severities bottom to top; any other level (the rules may define their own) and "none" stack above them. */
const ORDER = ['critical', 'high', 'medium', 'low', 'info'];

export interface Segment {
  readonly severity: string;
  readonly count: number;
  /** Count below this segment in its bar. */
  readonly base: number;
}

export interface Bar {
  /** Start of the bucket, ms since the epoch. */
  readonly start: number;
  readonly total: number;
  readonly segments: readonly Segment[];
}

export interface ChartData {
  readonly bucketMinutes: number;
  readonly bars: readonly Bar[];
  readonly max: number;
  readonly severities: readonly string[];
  readonly totals: ReadonlyMap<string, number>;
}

/**
 * The overview's counts (one row per bucket of `bucketMinutes`, as the API summed them, kind and severity; only
 * buckets with events) as stacked bars covering `hours` up to `now`: kinds merged, severities stacked. The
 * bucket width is the API's (chart-buckets.ts), so the bars line up with the rows whatever width it picks.
 */
export function chartBars(
  counts: readonly MinuteCount[],
  now: number,
  hours: number,
  bucketMinutes: number,
): ChartData {
  const minutes = hours * 60;
  const bucketMs = bucketMinutes * 60_000;
  const end = Math.floor(now / 60_000) * 60_000 + 60_000;
  const count = Math.ceil(minutes / bucketMinutes);
  const start = end - count * bucketMs;
  const cells = Array.from({ length: count }, () => new Map<string, number>());
  const totals = new Map<string, number>();
  for (const row of counts) {
    const at = Date.parse(row.minute);
    const index = Math.floor((at - start) / bucketMs);
    const cell = cells[index];
    if (cell === undefined) continue;
    const severity = row.severity ?? 'none';
    cell.set(severity, (cell.get(severity) ?? 0) + row.count);
    totals.set(severity, (totals.get(severity) ?? 0) + row.count);
  }
  const severities = [...totals.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  let max = 0;
  const bars = cells.map((cell, index): Bar => {
    let base = 0;
    const segments: Segment[] = [];
    for (const severity of severities) {
      const value = cell.get(severity) ?? 0;
      if (value === 0) continue;
      segments.push({ severity, count: value, base });
      base += value;
    }
    max = Math.max(max, base);
    return { start: start + index * bucketMs, total: base, segments };
  });
  return { bucketMinutes, bars, max, severities, totals };
}

function rank(severity: string): number {
  const index = ORDER.indexOf(severity);
  return index === -1 ? ORDER.length : index;
}
