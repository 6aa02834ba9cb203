/**
 * `npm run bench`: the ingest benchmark (bench/ingest-bench.ts: a bare server, the daemon on SQLite, and on
 * PostgreSQL at 1 and 3 instances, under the same load), then the delivery benchmark (bench/delivery-bench.ts),
 * then a table of the journals side by side, then the key-ordering benchmark (bench/key-ordering-bench.ts), then
 * the daemon's memory idle and under load (bench/memory-bench.ts), the routing micro-benchmark if
 * bench/routing-bench.ts exists. Reports, never asserts (issues 2, 3 and 4, Performance). Options: see bench/README.md.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_BENCH_DATABASE_URL, maskUrl, openBenchDatabase, type BenchDatabase } from './bench-database.js';
import { runDeliveryBench } from './delivery-bench.js';
import { main as runHostileBodies } from './hostile-bodies.js';
import { runConsoleBench } from './console-bench.js';
import { runIngestBench } from './ingest-bench.js';
import { runKeyOrderingBench } from './key-ordering-bench.js';
import { runMemoryBench } from './memory-bench.js';
import { overallSummary } from './overall-summary.js';
import { runPipelineBench } from './pipeline-bench.js';
import { runPruneBench } from './prune-bench.js';
import type { TargetSummary } from './summarize.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: env.BENCH_ROUNDS ?? '5' },
    duration: { type: 'string', default: env.BENCH_DURATION ?? '5' },
    warmup: { type: 'string', default: env.BENCH_WARMUP ?? '1' },
    connections: { type: 'string', default: env.BENCH_CONNECTIONS ?? '64' },
    pool: { type: 'string', default: env.BENCH_POOL },
    'log-level': { type: 'string', default: env.BENCH_LOG_LEVEL ?? 'info' },
    'cpu-prof': { type: 'string', default: env.BENCH_CPU_PROF },
    'ingest-baseline': { type: 'string', default: env.BENCH_INGEST_BASELINE },
    'skip-floors': { type: 'boolean', default: env.BENCH_SKIP_FLOORS === '1' },
    'ingest-rate': { type: 'string', default: env.BENCH_INGEST_RATE },
    'skip-routing': { type: 'boolean', default: env.BENCH_SKIP_ROUTING === '1' },
    'skip-hostile': { type: 'boolean', default: env.BENCH_SKIP_HOSTILE === '1' },
    'skip-ingest': { type: 'boolean', default: env.BENCH_SKIP_INGEST === '1' },
    'skip-delivery': { type: 'boolean', default: env.BENCH_SKIP_DELIVERY === '1' },
    'skip-postgres': { type: 'boolean', default: env.BENCH_SKIP_POSTGRES === '1' },
    'pg-pool': { type: 'string', default: env.BENCH_PG_POOL ?? '10' },
    'delivery-rounds': { type: 'string', default: env.BENCH_DELIVERY_ROUNDS ?? '5' },
    deliveries: { type: 'string', default: env.BENCH_DELIVERIES ?? '20000' },
    'delivery-concurrency': { type: 'string', default: env.BENCH_DELIVERY_CONCURRENCY ?? '64' },
    'delivery-per-ms': { type: 'string', default: env.BENCH_DELIVERY_PER_MS ?? '4' },
    'memory-rounds': { type: 'string', default: env.BENCH_MEMORY_ROUNDS ?? '3' },
    'memory-pending': { type: 'string', default: env.BENCH_MEMORY_PENDING ?? '100000' },
    'memory-settle': { type: 'string', default: env.BENCH_MEMORY_SETTLE ?? '3' },
    'delivery-cpu-prof': { type: 'string', default: env.BENCH_DELIVERY_CPU_PROF },
    'skip-prune': { type: 'boolean', default: env.BENCH_SKIP_PRUNE === '1' },
    'skip-noise': { type: 'boolean', default: env.BENCH_SKIP_NOISE === '1' },
    'only-noise': { type: 'boolean', default: env.BENCH_ONLY_NOISE === '1' },
    'only-prune': { type: 'boolean', default: env.BENCH_ONLY_PRUNE === '1' },
    'only-key-ordering': { type: 'boolean', default: env.BENCH_ONLY_KEY_ORDERING === '1' },
    'only-pipeline': { type: 'boolean', default: env.BENCH_ONLY_PIPELINE === '1' },
    'skip-pipeline': { type: 'boolean', default: env.BENCH_SKIP_PIPELINE === '1' },
    'pipeline-rounds': { type: 'string', default: env.BENCH_PIPELINE_ROUNDS ?? '3' },
    'pipeline-duration': { type: 'string', default: env.BENCH_PIPELINE_DURATION ?? '10' },
    'pipeline-baseline': { type: 'string', default: env.BENCH_PIPELINE_BASELINE },
    'pipeline-cpu-prof': { type: 'string', default: env.BENCH_PIPELINE_CPU_PROF },
    'pipeline-config': { type: 'string', multiple: true, default: [] },
    'pipeline-node-flag': { type: 'string', multiple: true, default: [] },
    'pipeline-postgres': { type: 'boolean', default: env.BENCH_PIPELINE_POSTGRES === '1' },
    'pipeline-skip-sqlite': { type: 'boolean', default: env.BENCH_PIPELINE_SKIP_SQLITE === '1' },
    'pipeline-postgres-instances': { type: 'string', default: env.BENCH_PIPELINE_POSTGRES_INSTANCES ?? '1' },
    'pipeline-lifecycle': { type: 'boolean', default: env.BENCH_PIPELINE_LIFECYCLE === '1' },
    'pipeline-alertmanager': { type: 'string', default: env.BENCH_PIPELINE_ALERTMANAGER },
    'only-console': { type: 'boolean', default: env.BENCH_ONLY_CONSOLE === '1' },
    'skip-console': { type: 'boolean', default: env.BENCH_SKIP_CONSOLE === '1' },
    'console-events': { type: 'string', default: env.BENCH_CONSOLE_EVENTS ?? '1000000' },
    'console-rounds': { type: 'string', default: env.BENCH_CONSOLE_ROUNDS ?? '20' },
    'skip-key-ordering': { type: 'boolean', default: env.BENCH_SKIP_KEY_ORDERING === '1' },
    'key-ordering-rounds': { type: 'string', default: env.BENCH_KEY_ORDERING_ROUNDS ?? '3' },
    'hot-key-deliveries': { type: 'string', default: env.BENCH_HOT_KEY_DELIVERIES ?? '2000' },
    'prune-events': { type: 'string', default: env.BENCH_PRUNE_EVENTS ?? '1000000' },
    'prune-rounds': { type: 'string', default: env.BENCH_PRUNE_ROUNDS ?? '3' },
    'prune-duration': { type: 'string', default: env.BENCH_PRUNE_DURATION ?? '20' },
    'prune-connections': { type: 'string', default: env.BENCH_PRUNE_CONNECTIONS ?? '16' },
    'prune-batch': { type: 'string', default: env.BENCH_PRUNE_BATCH ?? '500' },
    'only-memory': { type: 'boolean', default: env.BENCH_ONLY_MEMORY === '1' },
    'skip-memory': { type: 'boolean', default: env.BENCH_SKIP_MEMORY === '1' },
    'daemon-memory-rounds': { type: 'string', default: env.BENCH_DAEMON_MEMORY_ROUNDS ?? '3' },
    'daemon-memory-duration': { type: 'string', default: env.BENCH_DAEMON_MEMORY_DURATION ?? '10' },
    'daemon-memory-node-flag': { type: 'string', multiple: true, default: [] },
  },
});
// `--only-noise` (issue 12), `--only-prune` (issue 10), `--only-key-ordering` (issue 14), `--only-console`
// (issue 13), `--only-pipeline` (issue 11): those parts alone, everything else off.
const parts = [
  'ingest',
  'delivery',
  'postgres',
  'routing',
  'hostile',
  'prune',
  'noise',
  'key-ordering',
  'pipeline',
  'console',
  'memory',
] as const;
const only = new Set(parts.filter((part) => flags[`only-${part}` as keyof typeof flags] === true));
if (only.size > 0) for (const part of parts) if (!only.has(part)) flags[`skip-${part}`] = true;
const positive = (name: string, text: string | undefined, allowZero = false): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1))
    throw new Error(`--${name} must be an integer, got ${text}`);
  return value;
};
const rounds = positive('rounds', flags.rounds);
const load = {
  connections: positive('connections', flags.connections),
  durationSeconds: positive('duration', flags.duration),
  warmupSeconds: positive('warmup', flags.warmup, true),
};
// Pre-signed events per load run: room for 30,000 requests/s, well above what this machine's bare server does.
const poolSize = flags.pool ? positive('pool', flags.pool) : (load.durationSeconds + load.warmupSeconds) * 30_000;
const logLevel = flags['log-level'] ?? 'info';
const cpuProfDir = flags['cpu-prof'] ? path.resolve(flags['cpu-prof']) : undefined;
// 10: the daemon's default pool_size.
const postgresPoolSize = positive('pg-pool', flags['pg-pool']);
const postgresInstances = [1, 3];
const delivery = {
  root: ROOT,
  rounds: positive('delivery-rounds', flags['delivery-rounds'], true),
  deliveries: positive('deliveries', flags.deliveries),
  concurrency: positive('delivery-concurrency', flags['delivery-concurrency']),
  perMs: positive('delivery-per-ms', flags['delivery-per-ms'], true),
  memoryRounds: positive('memory-rounds', flags['memory-rounds'], true),
  memoryPending: positive('memory-pending', flags['memory-pending']),
  memorySettleSeconds: positive('memory-settle', flags['memory-settle']),
  logLevel,
  cpuProfDir: flags['delivery-cpu-prof'] ? path.resolve(flags['delivery-cpu-prof']) : undefined,
  postgresPoolSize,
  postgresInstances,
};

if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
  console.error('bench: dist/cli/main.js is missing; run `npm run build` first (`npm run bench` does).');
  process.exit(1);
}

// Skipped with a clear message rather than failing: most runs are about SQLite, and CI may have no database.
let postgres: BenchDatabase | undefined;
if (flags['skip-postgres']) {
  console.log('PostgreSQL: skipped (--skip-postgres / BENCH_SKIP_POSTGRES=1)');
} else if (!flags['skip-ingest'] || !flags['skip-delivery']) {
  const url = env.SWITCHYARD_BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
  const opened = await openBenchDatabase(url);
  if ('unreachable' in opened) {
    console.log(
      `PostgreSQL: ${maskUrl(url)} cannot be reached (${opened.unreachable}); skipping the PostgreSQL part. ` +
        'Set SWITCHYARD_BENCH_DATABASE_URL, or --skip-postgres to say so.',
    );
  } else {
    postgres = opened;
    console.log(
      `PostgreSQL: ${postgres.shownUrl} (${postgres.serverInfo}); a fresh schema per journal ` +
        '(switchyard_bench_*), dropped at the end',
    );
  }
}

if (!flags['skip-pipeline']) {
  const baseline = flags['pipeline-baseline'];
  // `--pipeline-postgres`: a daemon on PostgreSQL too, with the server's CPU per event (issue 11).
  const url = env.SWITCHYARD_BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
  const opened = flags['pipeline-postgres'] ? await openBenchDatabase(url) : undefined;
  if (opened && 'unreachable' in opened) throw new Error(`--pipeline-postgres: ${maskUrl(url)}: ${opened.unreachable}`);
  try {
    await runPipelineBench({
      root: ROOT,
      rounds: positive('pipeline-rounds', flags['pipeline-rounds']),
      durationSeconds: positive('pipeline-duration', flags['pipeline-duration']),
      connections: load.connections,
      logLevel,
      baselineRoot: baseline ? path.resolve(baseline) : undefined,
      cpuProfDir: flags['pipeline-cpu-prof'] ? path.resolve(flags['pipeline-cpu-prof']) : undefined,
      extraConfig: flags['pipeline-config'],
      nodeFlags: flags['pipeline-node-flag'],
      postgres: opened,
      postgresPoolSize,
      skipSqlite: flags['pipeline-skip-sqlite'],
      postgresInstances: positive('pipeline-postgres-instances', flags['pipeline-postgres-instances']),
      lifecycle: flags['pipeline-lifecycle'],
      alertmanager: flags['pipeline-alertmanager'],
    });
  } finally {
    await opened?.close();
  }
}

try {
  let ingest = new Map<string, TargetSummary>();
  if (!flags['skip-ingest']) {
    ingest = await runIngestBench({
      root: ROOT,
      rounds,
      load: flags['ingest-rate'] ? { ...load, overallRate: positive('ingest-rate', flags['ingest-rate']) } : load,
      poolSize,
      logLevel,
      cpuProfDir,
      postgres,
      postgresPoolSize,
      postgresInstances,
      baselineRoot: flags['ingest-baseline'] ? path.resolve(flags['ingest-baseline']) : undefined,
      skipFloors: flags['skip-floors'],
    });
  }
  const deliveries = flags['skip-delivery']
    ? new Map<string, number>()
    : await runDeliveryBench({ ...delivery, postgres });
  if (postgres && ingest.size + deliveries.size > 0) console.log(`${overallSummary(ingest, deliveries)}\n`);
} finally {
  await postgres?.close();
}

if (!flags['skip-key-ordering']) {
  await runKeyOrderingBench({
    root: ROOT,
    rounds: positive('key-ordering-rounds', flags['key-ordering-rounds']),
    deliveries: delivery.deliveries,
    hotDeliveries: positive('hot-key-deliveries', flags['hot-key-deliveries']),
    concurrency: delivery.concurrency,
    perMs: delivery.perMs,
    logLevel,
  });
}

if (!flags['skip-prune']) {
  const duration = positive('prune-duration', flags['prune-duration']);
  await runPruneBench({
    root: ROOT,
    rounds: positive('prune-rounds', flags['prune-rounds']),
    events: positive('prune-events', flags['prune-events']),
    batchSize: positive('prune-batch', flags['prune-batch']),
    load: {
      ...load,
      connections: positive('prune-connections', flags['prune-connections']),
      durationSeconds: duration,
    },
    // Room for 5,000 requests/s: fewer connections than the ingest bench, and a daemon busy pruning.
    poolSize: flags.pool ? positive('pool', flags.pool) : (duration + load.warmupSeconds) * 5_000,
    logLevel,
  });
}

if (!flags['skip-console']) {
  await runConsoleBench({
    root: ROOT,
    events: positive('console-events', flags['console-events']),
    rounds: positive('console-rounds', flags['console-rounds']),
    logLevel,
  });
}

if (!flags['skip-memory']) {
  console.log('\ndaemon memory, idle and under the ingest load (bench/memory-bench.ts)');
  await runMemoryBench({
    root: ROOT,
    rounds: positive('daemon-memory-rounds', flags['daemon-memory-rounds']),
    durationSeconds: positive('daemon-memory-duration', flags['daemon-memory-duration']),
    connections: load.connections,
    logLevel,
    nodeFlags: flags['daemon-memory-node-flag'],
  });
}

if (!flags['skip-noise']) {
  console.log('\nnoise control at ingest (bench/noise-bench.ts)');
  await (await import('./noise-bench.js')).main([]);
}

if (!flags['skip-hostile']) {
  console.log('\nunauthenticated memory under a flood (bench/hostile-bodies.ts)');
  await runHostileBodies();
}

const routingBench = path.join(ROOT, 'bench/routing-bench.ts');
if (!flags['skip-routing'] && existsSync(routingBench)) {
  console.log('\nrouting benchmark (bench/routing-bench.ts)');
  const routing = (await import(pathToFileURL(routingBench).href)) as { main: () => unknown };
  await routing.main();
}

if (!flags['skip-routing']) {
  console.log('\nmasking benchmark (bench/masking-bench.ts)');
  await (await import('./masking-bench.js')).main();
}
