import { formatTable } from '../src/cli/format-table.js';
import type { TargetSummary } from './summarize.js';

const int = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? '-' : Math.round(value).toLocaleString('en-US');

/**
 * The journals side by side (issue 4): per backend and instance count, the ingest medians and the delivery
 * median from the two benchmarks above, and whether 3 instances on PostgreSQL ingest at least as much as one
 * on SQLite. Everything here ran on the same cores: see the CPU lines of the rounds for what was saturated.
 */
export function overallSummary(
  ingest: ReadonlyMap<string, TargetSummary>,
  delivery: ReadonlyMap<string, number>,
): string {
  const names = [...new Set([...ingest.keys(), ...delivery.keys()])].filter((name) => name !== 'bare');
  const rows = names.map((name) => {
    const [backend = name, instances = ''] = name.split('-');
    const summary = ingest.get(name);
    return [
      backend,
      instances,
      int(summary?.requestsPerSecond),
      summary ? String(summary.p50Ms) : '-',
      summary ? String(summary.p99Ms) : '-',
      int(delivery.get(name)),
    ];
  });
  const header = ['backend', 'instances', 'ingest req/s', 'p50 ms', 'p99 ms', 'deliveries/s'];
  const lines = formatTable(header, rows).trimEnd().split('\n');
  const sqlite = ingest.get('sqlite-1');
  const postgres3 = ingest.get('postgres-3');
  if (sqlite && postgres3) {
    const ratio = postgres3.requestsPerSecond / sqlite.requestsPerSecond;
    lines.push(
      '',
      `ingest postgres-3/sqlite-1 (median req/s): ${ratio.toFixed(2)}   aim >= 1.0 (issue 4)` +
        `${ratio >= 1 ? '' : '   not met on this run'}`,
    );
  }
  return ['journals side by side (medians of the rounds above)', ...lines].join('\n');
}
