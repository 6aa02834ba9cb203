/**
 * The delivery engine alone in its own process, wired as src/main.ts wires it (SQLite journal, rules file,
 * JSON logger, metrics, the real targets), loaded from the compiled `dist/` like the daemon in the ingest
 * benchmark. Run by bench/delivery-bench.ts: `node --import tsx bench/delivery-engine-process.ts '<json>'`
 * (`--expose-gc` for the memory mode). Prints one JSON line: a ThroughputResult or a MemoryResult.
 */
import { openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type * as MetricsModule from '../src/admin/metrics.js';
import type * as SwitchyardMetricsModule from '../src/admin/switchyard-metrics.js';
import type * as EngineModule from '../src/delivery/delivery-engine.js';
import type * as TargetsModule from '../src/delivery/targets/create-target.js';
import type * as LoggerModule from '../src/log/create-logger.js';
import type { LogLevel } from '../src/log/logger.js';
import type * as RulesModule from '../src/rules/load-rules-or-throw.js';
import type * as StoreModule from '../src/store/sqlite/create-sqlite-store.js';
import type { AttemptRecord } from '../src/store/store.js';
import type { EngineRunOptions, MemoryResult, ThroughputResult } from './delivery-results.js';
import { timedStore } from './timed-store.js';

const options = JSON.parse(process.argv[2] ?? '{}') as EngineRunOptions;
const load = async <T>(file: string): Promise<T> =>
  (await import(pathToFileURL(path.join(options.root, 'dist', file)).href)) as T;
const { createSqliteStore } = await load<typeof StoreModule>('store/sqlite/create-sqlite-store.js');
const { createDeliveryEngine } = await load<typeof EngineModule>('delivery/delivery-engine.js');
const { createTarget } = await load<typeof TargetsModule>('delivery/targets/create-target.js');
const { createLogger } = await load<typeof LoggerModule>('log/create-logger.js');
const { createMetrics } = await load<typeof MetricsModule>('admin/metrics.js');
const { SWITCHYARD_METRICS } = await load<typeof SwitchyardMetricsModule>('admin/switchyard-metrics.js');
const { loadRulesOrThrow } = await load<typeof RulesModule>('rules/load-rules-or-throw.js');

// The daemon logs one JSON line per attempt to stdout, which the ingest benchmark points at /dev/null (a
// synchronous write); stdout is taken here by the result line, so the log goes to /dev/null the same way.
const devNull = openSync('/dev/null', 'w');
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    writeSync(devNull, chunk);
    done();
  },
});

let finished = 0;
let failed = 0;
let allDone: () => void = () => undefined;
const done = new Promise<void>((resolve) => (allDone = resolve));
const { store, times } = timedStore(
  createSqliteStore({ path: options.journal }),
  (records: readonly AttemptRecord[]) => {
    for (const record of records) {
      if (record.next.state === 'delivered') finished += 1;
      else failed += 1;
    }
    if (finished >= options.expected) allDone();
  },
);
await store.migrate();
const { rules } = loadRulesOrThrow(options.rulesFile, {});
let sendSyncMs = 0;
const engine = createDeliveryEngine({
  store,
  log: createLogger({ level: options.logLevel as LogLevel, stream: logStream }),
  clock: { now: () => Date.now() },
  metrics: createMetrics(SWITCHYARD_METRICS),
  rules: () => rules,
  secrets: () => [],
  createTarget: (spec, deps) => {
    const target = createTarget(spec, deps);
    return {
      send(job, signal) {
        const started = performance.now();
        const outcome = target.send(job, signal);
        sendSyncMs += performance.now() - started;
        return outcome;
      },
      close: () => target.close(),
    };
  },
});

const pendingNow = async (): Promise<number> =>
  (await store.countByTarget()).filter((row) => row.state === 'pending').reduce((sum, row) => sum + row.count, 0);

if (options.mode === 'throughput') {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await engine.start();
  const timeout = setTimeout(() => {
    console.error(`engine: only ${finished} of ${options.expected} delivered (${failed} failed) within the timeout`);
    process.exit(1);
  }, options.timeoutMs);
  await done;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearTimeout(timeout);
  const result: ThroughputResult = {
    delivered: finished,
    failed,
    seconds,
    cpuUs: cpu.user + cpu.system,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    timings: { ...times, sendSyncMs },
  };
  await engine.stop(5_000);
  console.log(JSON.stringify(result));
} else {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('the memory mode needs node --expose-gc');
  await engine.start();
  await sleep(options.settleMs);
  // Several full collections with pauses between them, so that what is left is what the process holds.
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(100);
  }
  const memory = process.memoryUsage();
  const result: MemoryResult = {
    pending: await pendingNow(),
    attempts: finished + failed,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
  };
  await engine.stop(5_000);
  console.log(JSON.stringify(result));
}
await store.close();
