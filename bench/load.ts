/**
 * The load generator, run as its own process so it does not share an event loop with the server under test:
 * `BENCH_SECRET=... node --import tsx bench/load.ts '<json options>'`. Every request is a distinct signed
 * event (see signed-event.ts), or with `"body": "alert"` a distinct Alertmanager alert (alert-factory.ts).
 * Prints one JSON line with the figures on stdout.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { createAlertFactory } from './alert-factory.js';
import { cpuSnapshot, cpuUse } from './cpu-sample.js';
import type { LoadOptions, LoadResult } from './run-load.js';
import { createEventFactory, SIGNATURE_HEADER, type SignedEvent } from './signed-event.js';

const secret = process.env.BENCH_SECRET;
const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
if (!secret || !options.urls?.length) {
  console.error('usage: BENCH_SECRET=... load.ts \'{"urls":[...],"connections":64,...}\'');
  process.exit(2);
}
const nextEvent = options.body === 'alert' ? createAlertFactory() : createEventFactory(secret);
// Making and signing events during the run made the load generator the bottleneck (the bare server's figure
// dropped by about 40% on this 2-core machine), so they are made before the clock starts. Should the pool
// run out, events are made on the fly (still distinct, just slower) and the count is reported.
const pool: (SignedEvent | undefined)[] = Array.from({ length: options.poolSize }, nextEvent);
let used = 0;
let madeLive = 0;
const take = (): SignedEvent => {
  const event = pool[used];
  if (event === undefined) {
    madeLive += 1;
    return nextEvent();
  }
  pool[used++] = undefined; // let it be collected
  return event;
};

// CPU use is read over warm-up and measurement together, after the pool is made (that is not the servers' load).
const cpuBefore = cpuSnapshot(options.serverPids);
const ownBefore = process.cpuUsage();
const started = performance.now();
const result = await autocannon({
  url: [...options.urls],
  connections: options.connections,
  duration: options.durationSeconds,
  timeout: 10,
  ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
  ...(options.warmupSeconds > 0
    ? { warmup: { connections: options.connections, duration: options.warmupSeconds } }
    : {}),
  requests: [
    {
      method: 'POST',
      // autocannon calls setupRequest for every request it sends, so each one gets a fresh body and signature.
      setupRequest: (request) => {
        const event = take();
        return {
          ...request,
          body: event.body,
          headers: { ...request.headers, 'content-type': 'application/json', [SIGNATURE_HEADER]: event.signature },
        };
      },
    },
  ],
});

const ownCpu = process.cpuUsage(ownBefore);
const elapsedMs = performance.now() - started; // the load's own time, before any wait for a backlog
const cpuAfter = cpuSnapshot(options.serverPids);
const backlog = options.backlogUrl === undefined ? undefined : await drainBacklog(options.backlogUrl);
const cpu = cpuUse(cpuBefore, cpuAfter, backlog && cpuSnapshot(options.serverPids)?.pids);
const summary: LoadResult = {
  requestsPerSecond: result.requests.average,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  madeLive,
  ...(cpu === undefined ? {} : { cpu }),
  loadCores: (ownCpu.user + ownCpu.system) / 1000 / elapsedMs,
  ...(backlog === undefined ? {} : { backlog }),
};
process.stdout.write(`${JSON.stringify(summary)}\n`);

/** Reads the backlog as the load ends, then waits until it is 0 (at most 30 s: a stuck server fails the run). */
async function drainBacklog(url: string): Promise<{ atEnd: number; drainedMs: number }> {
  const read = async () => ((await (await fetch(url)).json()) as { backlog: number }).backlog;
  const atEnd = await read();
  const from = performance.now();
  for (let left = atEnd; left > 0; left = await read()) {
    if (performance.now() - from > 30_000) throw new Error(`${url}: still ${left} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { atEnd, drainedMs: Math.round(performance.now() - from) };
}
