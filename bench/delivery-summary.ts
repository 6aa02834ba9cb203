import type { ClientResult, MemoryResult, ThroughputResult } from './delivery-results.js';
import { median } from './summarize.js';

const int = (value: number): string => Math.round(value).toLocaleString('en-US');
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
export const rate = (result: ClientResult | ThroughputResult): number =>
  ('requests' in result ? result.requests : result.delivered) / result.seconds;
const cpuEach = (result: ClientResult | ThroughputResult): number =>
  result.cpuUs / ('requests' in result ? result.requests : result.delivered);

/** Left-aligned columns, two spaces apart. */
function align(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

export function roundLine(round: number, sender: string, result: ClientResult | ThroughputResult): string {
  const head = `  round ${round} ${sender.padEnd(11)} ${int(rate(result)).padStart(6)}/s  ${int(cpuEach(result)).padStart(4)} us CPU each`;
  if ('requests' in result) return head;
  if (result.instances !== undefined) return `${head}  (${fleetDetail(result)})`;
  const share = (ms: number) => `${((ms / 1000 / result.seconds) * 100).toFixed(0)}%`;
  const { timings } = result;
  return (
    `${head}  (in the journal: claimDue ${share(timings.claimMs)}, recordAttempts ${share(timings.recordMs)} ` +
    `of the time; max RSS ${mb(result.maxRssBytes)} MB)`
  );
}

/** A PostgreSQL fleet's round: the server's CPU too, the machine's load, and the journal calls' latency. */
function fleetDetail(result: ThroughputResult): string {
  const { timings } = result;
  const perCall = (ms: number, calls: number) => `${(ms / Math.max(calls, 1)).toFixed(1)} ms`;
  return [
    `${result.instances} engine${result.instances === 1 ? '' : 's'}`,
    ...(result.postgresCpuUs === undefined ? [] : [`postgres ${int(result.postgresCpuUs / result.delivered)} us each`]),
    ...(result.machineBusyCores === undefined ? [] : [`machine ${result.machineBusyCores.toFixed(2)} cores busy`]),
    `awaited per call: claim ${perCall(timings.claimMs, timings.claimCalls)} (${timings.claimCalls} calls), ` +
      `recordAttempts ${perCall(timings.recordMs, timings.recordCalls)} (${timings.recordCalls}), ` +
      `report ${perCall(timings.reportMs, timings.reportCalls)} (${timings.reportCalls})`,
  ].join('; ');
}

export function throughputTable(
  clients: readonly ClientResult[],
  engines: ReadonlyMap<string, readonly ThroughputResult[]>,
): string {
  const hasPostgres = [...engines.keys()].some((name) => name.startsWith('postgres'));
  const postgresEach = (results: readonly (ClientResult | ThroughputResult)[]) => {
    const each = results.flatMap((r) =>
      'postgresCpuUs' in r && r.postgresCpuUs !== undefined ? [r.postgresCpuUs / r.delivered] : [],
    );
    return each.length > 0 ? int(median(each)) : '-';
  };
  const row = (name: string, results: readonly (ClientResult | ThroughputResult)[]) => [
    name,
    int(median(results.map(rate))),
    int(median(results.map(cpuEach))),
    ...(hasPostgres ? [postgresEach(results)] : []),
    results.map((r) => int(rate(r))).join(' '),
  ];
  const sqlite = engines.get('sqlite-1') ?? [];
  const sqliteRate = median(sqlite.map(rate));
  // Wall time inside each journal call, per delivery: better-sqlite3 is synchronous, so this is event-loop time.
  const us = (pick: (r: ThroughputResult) => number) =>
    median(sqlite.map((r) => (pick(r) * 1000) / r.delivered)).toFixed(0);
  const ratios = [...engines]
    .filter(([name]) => name.startsWith('postgres'))
    .map(
      ([name, results]) =>
        `ratio ${name}/sqlite-1 (median per s): ${(median(results.map(rate)) / sqliteRate).toFixed(2)}`,
    );
  return [
    ...align([
      [
        'sender',
        'per s (median)',
        'CPU us each (median)',
        ...(hasPostgres ? ['postgres CPU us each'] : []),
        'per s per round',
      ],
      row('bare client', clients),
      ...[...engines].map(([name, results]) => row(name, results)),
    ]),
    '',
    `ratio sqlite-1/bare client (median per s): ${(sqliteRate / median(clients.map(rate))).toFixed(2)}`,
    `sqlite-1: ${int(sqliteRate)} deliveries/s   aim >= 2,000`,
    `sqlite-1 time per delivery (medians): claimDue ${us((r) => r.timings.claimMs)} us, recordAttempts ` +
      `${us((r) => r.timings.recordMs)} us, nextDueAt ${us((r) => r.timings.nextDueMs)} us, ` +
      `target.send until its first await ${us((r) => r.timings.sendSyncMs)} us`,
    ...ratios,
  ].join('\n');
}

export function memoryLine(round: number, result: MemoryResult): string {
  return (
    `  round ${round} ${int(result.pending).padStart(7)} pending  RSS ${mb(result.rssBytes)} MB  ` +
    `heap ${mb(result.heapUsedBytes)} MB  (${result.attempts} attempts made)`
  );
}

export function memoryTable(pending: number, none: readonly MemoryResult[], backlog: readonly MemoryResult[]): string {
  const row = (label: string, results: readonly MemoryResult[]) => [
    label,
    mb(median(results.map((r) => r.rssBytes))),
    mb(median(results.map((r) => r.heapUsedBytes))),
    results.map((r) => mb(r.rssBytes)).join(' '),
  ];
  const difference = median(backlog.map((r) => r.rssBytes)) - median(none.map((r) => r.rssBytes));
  return [
    ...align([
      ['pending', 'RSS MB (median)', 'heap MB (median)', 'RSS MB per round'],
      row('0', none),
      row(int(pending), backlog),
    ]),
    '',
    `RSS difference (medians): ${mb(difference)} MB   aim <= 50 MB`,
  ].join('\n');
}
