import type { LoadResult } from './run-load.js';

export interface TargetSummary {
  readonly target: string;
  readonly rounds: readonly LoadResult[];
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Medians over the rounds: requests/s, and the per-round p50 and p99 latencies. */
export function summarize(target: string, rounds: readonly LoadResult[]): TargetSummary {
  return {
    target,
    rounds,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
  };
}

const int = (value: number): string => Math.round(value).toLocaleString('en-US');

export function formatTable(bare: TargetSummary, switchyard: TargetSummary): string {
  const rows = [
    ['target', 'req/s (median)', 'p50 ms', 'p99 ms', 'req/s per round'],
    ...[bare, switchyard].map((s) => [
      s.target,
      int(s.requestsPerSecond),
      String(s.p50Ms),
      String(s.p99Ms),
      s.rounds.map((r) => int(r.requestsPerSecond)).join(' '),
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const ratio = switchyard.requestsPerSecond / bare.requestsPerSecond;
  lines.push(
    '',
    `ratio switchyard/bare (median req/s): ${ratio.toFixed(2)}   aim >= 0.5 (0.7 reachable)`,
    `switchyard p99: ${switchyard.p99Ms} ms   aim < 10 ms`,
  );
  return lines.join('\n');
}
