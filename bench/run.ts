/**
 * `npm run bench`: Switchyard's durable ingest against a bare node:http server that only checks the
 * signature, under the same load from a separate autocannon process, alternating for several rounds; then
 * the delivery benchmark (bench/delivery-bench.ts, issue 3); then the routing micro-benchmark if
 * bench/routing-bench.ts exists. Reports, never asserts (issues 2 and 3, Performance). Options: see
 * bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startChildServer, type ChildServer } from './child-server.js';
import { runDeliveryBench } from './delivery-bench.js';
import { freePort } from './free-port.js';
import { runLoad, type LoadResult } from './run-load.js';
import { smokeCheck } from './smoke.js';
import { BENCH_SOURCE, startDaemon } from './start-daemon.js';
import { formatTable, summarize } from './summarize.js';

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
    'skip-routing': { type: 'boolean', default: env.BENCH_SKIP_ROUTING === '1' },
    'skip-ingest': { type: 'boolean', default: env.BENCH_SKIP_INGEST === '1' },
    'skip-delivery': { type: 'boolean', default: env.BENCH_SKIP_DELIVERY === '1' },
    'delivery-rounds': { type: 'string', default: env.BENCH_DELIVERY_ROUNDS ?? '5' },
    deliveries: { type: 'string', default: env.BENCH_DELIVERIES ?? '20000' },
    'delivery-concurrency': { type: 'string', default: env.BENCH_DELIVERY_CONCURRENCY ?? '64' },
    'delivery-per-ms': { type: 'string', default: env.BENCH_DELIVERY_PER_MS ?? '4' },
    'memory-rounds': { type: 'string', default: env.BENCH_MEMORY_ROUNDS ?? '3' },
    'memory-pending': { type: 'string', default: env.BENCH_MEMORY_PENDING ?? '100000' },
    'memory-settle': { type: 'string', default: env.BENCH_MEMORY_SETTLE ?? '3' },
    'delivery-cpu-prof': { type: 'string', default: env.BENCH_DELIVERY_CPU_PROF },
  },
});
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
};

if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
  console.error('bench: dist/cli/main.js is missing; run `npm run build` first (`npm run bench` does).');
  process.exit(1);
}

if (!flags['skip-ingest']) {
  const secret = randomBytes(24).toString('hex');
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-bench-'));
  const servers: ChildServer[] = [];
  try {
    const barePort = await freePort();
    let daemonPort = await freePort();
    while (daemonPort === barePort) daemonPort = await freePort(); // both are free only until bound
    const bare = await startChildServer({
      name: 'bare',
      args: ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts'), String(barePort)],
      port: barePort,
      env: { ...env, BENCH_SECRET: secret },
      cwd: ROOT,
    });
    servers.push(bare);
    const daemon = await startDaemon({
      root: ROOT,
      dir,
      port: daemonPort,
      secret,
      logLevel,
      nodeFlags: cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    });
    servers.push(daemon);

    const targets = [
      { name: 'bare', url: `${bare.origin}/webhooks/${BENCH_SOURCE}`, isSwitchyard: false },
      { name: 'switchyard', url: `${daemon.origin}/webhooks/${BENCH_SOURCE}`, isSwitchyard: true },
    ];
    for (const target of targets) await smokeCheck(target.url, secret, target.isSwitchyard);

    console.log(
      `ingest benchmark: ${load.connections} connections, ${rounds} rounds x ${load.durationSeconds} s ` +
        `(+${load.warmupSeconds} s warm-up) per target, switchyard log level ${logLevel}, node ${process.version}`,
    );
    const results = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= rounds; round++) {
      // Alternate the order (bare first, then switchyard first) so drift over time favours neither.
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      for (const target of order) {
        const result = await runLoad({ url: target.url, ...load, poolSize }, secret);
        if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
          throw new Error(
            `${target.name}, round ${round}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ` +
              `${result.timeouts} timeouts out of ${result.total} requests; the figures would be meaningless`,
          );
        }
        results.get(target.name)?.push(result);
        console.log(
          `  round ${round} ${target.name.padEnd(10)} ${Math.round(result.requestsPerSecond)} req/s  ` +
            `p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  (${result.total} requests` +
            `${result.madeLive > 0 ? `; pool ran out, ${result.madeLive} signed live: raise --pool` : ''})`,
        );
      }
    }
    console.log(
      `\n${formatTable(summarize('bare', results.get('bare') ?? []), summarize('switchyard', results.get('switchyard') ?? []))}\n`,
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
    if (cpuProfDir) console.log(`daemon CPU profile written to ${cpuProfDir} (open in Chrome DevTools > Performance)`);
  }
}

if (!flags['skip-delivery']) await runDeliveryBench(delivery);

const routingBench = path.join(ROOT, 'bench/routing-bench.ts');
if (!flags['skip-routing'] && existsSync(routingBench)) {
  console.log('\nrouting benchmark (bench/routing-bench.ts)');
  const routing = (await import(pathToFileURL(routingBench).href)) as { main: () => unknown };
  await routing.main();
}
