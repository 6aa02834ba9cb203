/**
 * The delivery engine alone in its own process (built by bench-engine.ts), on a SQLite or a PostgreSQL
 * journal. Run by bench/delivery-bench.ts: `node --import tsx bench/delivery-engine-process.ts '<json>'`
 * (`--expose-gc` for the memory mode). Prints one JSON line: a ThroughputResult or a MemoryResult. In the
 * `fleet` mode it first prints `ready` and waits for `go`, then `stop`, on stdin (see engine-fleet.ts).
 */
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBenchEngine } from './bench-engine.js';
import type { EngineRunOptions, MemoryResult, ThroughputResult } from './delivery-results.js';

const options = JSON.parse(process.argv[2] ?? '{}') as EngineRunOptions;
const { engine, store, times, counts, done } = await createBenchEngine(options);

const pendingNow = async (): Promise<number> =>
  (await store.countByTarget()).filter((row) => row.state === 'pending').reduce((sum, row) => sum + row.count, 0);

/** Runs the engine from now until `finished` resolves; the clock and CPU start after loading and opening. */
async function measure(finished: Promise<void>): Promise<ThroughputResult> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await engine.start();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    delivered: counts.finished,
    failed: counts.failed,
    seconds,
    cpuUs: cpu.user + cpu.system,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    timings: { ...times, sendSyncMs: counts.sendSyncMs },
  };
}

if (options.mode === 'throughput') {
  const timeout = setTimeout(() => {
    console.error(`engine: only ${counts.finished} of ${options.expected} delivered (${counts.failed} failed)`);
    process.exit(1);
  }, options.timeoutMs);
  const result = await measure(done);
  clearTimeout(timeout);
  await engine.stop(5_000);
  console.log(JSON.stringify(result));
} else if (options.mode === 'fleet') {
  // Only the coordinator can see that the shared journal is drained; it tells every engine when to go and stop.
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const next = async (expected: string): Promise<void> => {
    const line = await lines.next();
    if (line.done === true || line.value.trim() !== expected) {
      throw new Error(`engine: expected "${expected}" on stdin, got ${JSON.stringify(line.value)}`);
    }
  };
  console.log('ready');
  await next('go');
  const result = await measure(next('stop'));
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
    attempts: counts.finished + counts.failed,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
  };
  await engine.stop(5_000);
  console.log(JSON.stringify(result));
}
await store.close();
