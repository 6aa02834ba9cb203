/**
 * The memory benchmark: the daemon's resident memory (RSS) idle after start and under the 64-connection ingest
 * load, beside the bare server's (bench/bare-server.ts, run under tsx, which itself costs some memory). Each
 * round starts both afresh: idle RSS 3 s after ready, then RSS sampled every 100 ms under the load (peak) and
 * as it ends. The daemon: SQLite journal, one route to one HTTP target (a receiver here answering 200).
 * Reports medians, never asserts. Details: bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildServer, type ChildServer } from './child-server.js';
import { freePort } from './free-port.js';
import { runLoad } from './run-load.js';
import { BENCH_SOURCE, DAEMON_NODE_FLAGS, startDaemon } from './start-daemon.js';
import { median } from './summarize.js';

export interface MemoryBenchOptions {
  readonly root: string;
  readonly rounds: number;
  readonly durationSeconds: number;
  readonly connections: number;
  readonly logLevel: string;
  /** Extra `node` flags for the daemon (after DAEMON_NODE_FLAGS), e.g. `--max-semi-space-size=16` (V8's default). */
  readonly nodeFlags?: readonly string[];
}

interface Sample {
  readonly idle: number;
  readonly peak: number;
  readonly end: number;
  readonly requestsPerSecond: number;
  /** The server's CPU time per request, in microseconds: what a heap setting costs, less load-sensitive than req/s. */
  readonly cpuUs: number;
}

const rules = (url: string) => `# Written by bench/memory-bench.ts: one route, one HTTP target.
targets:
  receiver: { type: http, url: "${url}" }
routes:
  - name: incidents
    match:
      event: "incident.*"
    to: [receiver]
`;

/** Resident memory of `pid` in MB (Linux: VmRSS in /proc). */
function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? Number.NaN) / 1024;
}

async function measure(server: ChildServer, options: MemoryBenchOptions, secret: string): Promise<Sample> {
  await sleep(3_000);
  const idle = rssMb(server.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 100);
  try {
    const result = await runLoad(
      {
        urls: [`${server.origin}/webhooks/${BENCH_SOURCE}`],
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: 0,
        poolSize: options.durationSeconds * 20_000,
        serverPids: [server.pid],
      },
      secret,
    );
    const end = rssMb(server.pid);
    const cpuUs = ((result.cpu?.processCores ?? Number.NaN) / result.requestsPerSecond) * 1e6;
    return { idle, peak: Math.max(peak, end), end, requestsPerSecond: result.requestsPerSecond, cpuUs };
  } finally {
    clearInterval(sampler);
  }
}

export async function runMemoryBench(options: MemoryBenchOptions): Promise<void> {
  const secret = randomBytes(24).toString('hex');
  const receiver = createServer((req, res) => {
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  const receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/events`;
  console.log(
    `memory benchmark: ${options.rounds} rounds x ${options.durationSeconds} s, ${options.connections} connections, ` +
      `daemon flags [${[...DAEMON_NODE_FLAGS, ...(options.nodeFlags ?? [])].join(' ')}], node ${process.version}`,
  );
  const samples = { bare: [] as Sample[], switchyard: [] as Sample[] };
  for (let round = 1; round <= options.rounds; round++) {
    for (const name of ['bare', 'switchyard'] as const) {
      const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-memory-'));
      const port = await freePort();
      const server =
        name === 'bare'
          ? await startChildServer({
              name,
              args: ['--import', 'tsx', path.join(options.root, 'bench/bare-server.ts'), String(port)],
              port,
              env: { ...process.env, BENCH_SECRET: secret },
              cwd: options.root,
            })
          : await startDaemon({
              root: options.root,
              dir,
              journal: { kind: 'sqlite' },
              port,
              secret,
              logLevel: options.logLevel,
              rules: rules(receiverUrl),
              nodeFlags: options.nodeFlags ?? [],
            });
      try {
        const sample = await measure(server, options, secret);
        samples[name].push(sample);
        console.log(
          `  round ${round} ${name.padEnd(10)} idle ${sample.idle.toFixed(1)} MB  under load: peak ` +
            `${sample.peak.toFixed(1)} MB, at end ${sample.end.toFixed(1)} MB  (${Math.round(sample.requestsPerSecond)} req/s, ${Math.round(sample.cpuUs)} µs CPU each)`,
        );
      } finally {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  receiver.close();
  const row = (name: string, list: readonly Sample[]) => {
    const of = (f: (s: Sample) => number) => median(list.map(f)).toFixed(1).padStart(8);
    return `${name.padEnd(12)}${of((s) => s.idle)}${of((s) => s.peak)}${of((s) => s.end)}${of((s) => s.requestsPerSecond)}${of((s) => s.cpuUs)}`;
  };
  console.log(
    `\nRSS in MB, medians of ${options.rounds} rounds\n${'server'.padEnd(12)}${'idle'.padStart(8)}` +
      `${'peak'.padStart(8)}${'end'.padStart(8)}${'req/s'.padStart(8)}${'µs CPU'.padStart(8)}\n` +
      `${row('bare', samples.bare)}\n${row('switchyard', samples.switchyard)}\n`,
  );
}
