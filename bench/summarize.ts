import type { LoadResult } from './run-load.js';

export interface TargetSummary {
  readonly target: string;
  readonly rounds: readonly LoadResult[];
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The server processes' CPU time per request, in µs (NaN where /proc could not be read). */
  readonly cpuPerRequestUs: number;
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
    cpuPerRequestUs: median(rounds.map((r) => ((r.cpu?.processCores ?? Number.NaN) / r.requestsPerSecond) * 1e6)),
  };
}

const int = (value: number): string => Math.round(value).toLocaleString('en-US');

/** The per-target table, then the ratios the issues set aims for (issue 2: SQLite/bare; issue 4: PostgreSQL x3/SQLite). */
export function formatTable(summaries: readonly TargetSummary[]): string {
  const rows = [
    ['target', 'req/s (median)', 'p50 ms', 'p99 ms', 'CPU µs/req', 'req/s per round'],
    ...summaries.map((s) => [
      s.target,
      int(s.requestsPerSecond),
      String(s.p50Ms),
      String(s.p99Ms),
      int(s.cpuPerRequestUs),
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
  const find = (name: string) => summaries.find((s) => s.target === name);
  const bare = find('bare');
  const sqlite = find('sqlite-1');
  const ratio = (a: TargetSummary, b: TargetSummary) => (a.requestsPerSecond / b.requestsPerSecond).toFixed(2);
  lines.push('');
  if (bare && sqlite) {
    lines.push(
      `ratio sqlite-1/bare (median req/s): ${ratio(sqlite, bare)}   aim >= 0.5 (0.7 reachable)`,
      `sqlite-1 p99: ${sqlite.p99Ms} ms   aim < 10 ms`,
    );
  }
  // Issue 11: CPU per request against the bare server's, for the floors and the daemon (bench/floor-server.ts).
  const cpuRatios = ['bare+commit', 'bare+journal', 'bare+append', 'sqlite-1'].flatMap((name) => {
    const summary = find(name);
    return bare && summary ? [`${name} ${(summary.cpuPerRequestUs / bare.cpuPerRequestUs).toFixed(2)}`] : [];
  });
  if (cpuRatios.length > 0) {
    lines.push(`CPU per request / bare's (medians): ${cpuRatios.join(', ')}   aim sqlite-1 <= 1.6 (issue 11)`);
  }
  for (const postgres of summaries.filter((s) => s.target.startsWith('postgres-'))) {
    const aim = postgres.target === 'postgres-3' ? '   aim >= 1.0 (issue 4)' : '';
    if (sqlite) lines.push(`ratio ${postgres.target}/sqlite-1 (median req/s): ${ratio(postgres, sqlite)}${aim}`);
  }
  return lines.join('\n');
}
