/**
 * The ingest benchmark (issues 2 and 4, Performance): the bare server, the daemon on SQLite and the daemon on
 * PostgreSQL at 1 and 3 instances, under the same load from a separate autocannon process, alternating for
 * several rounds. Reports, never asserts. Details: bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchDatabase } from './bench-database.js';
import type { ChildServer } from './child-server.js';
import { formatCpuUse } from './cpu-sample.js';
import { startIngestTargets } from './ingest-targets.js';
import { runLoad, type LoadResult } from './run-load.js';
import { smokeCheck } from './smoke.js';
import { formatTable, median, summarize, type TargetSummary } from './summarize.js';

export interface IngestBenchOptions {
  readonly root: string;
  readonly rounds: number;
  readonly load: {
    readonly connections: number;
    readonly durationSeconds: number;
    readonly warmupSeconds: number;
    /** A fixed rate of requests per second (all connections together) rather than a closed loop. */
    readonly overallRate?: number;
  };
  readonly poolSize: number;
  readonly logLevel: string;
  readonly cpuProfDir: string | undefined;
  readonly postgres: BenchDatabase | undefined;
  readonly postgresPoolSize: number;
  readonly postgresInstances: readonly number[];
  /** Another checkout with its own `dist/`, run as `baseline` on SQLite beside `sqlite-1`. */
  readonly baselineRoot: string | undefined;
  readonly skipFloors: boolean;
}

/** Runs the rounds and prints them and the table; returns the summary of each target by name. */
export async function runIngestBench(options: IngestBenchOptions): Promise<Map<string, TargetSummary>> {
  const { load, rounds } = options;
  const secret = randomBytes(24).toString('hex');
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-bench-'));
  const servers: ChildServer[] = [];
  try {
    const targets = await startIngestTargets(
      {
        ...options,
        dir,
        secret,
        nodeFlags: options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [],
      },
      servers,
    );
    for (const target of targets) {
      for (const url of target.urls) await smokeCheck(url, secret, target.isSwitchyard);
    }
    console.log(
      `ingest benchmark: ${load.connections} connections` +
        `${load.overallRate === undefined ? '' : ` at ${load.overallRate} req/s in all`}, ` +
        `${rounds} rounds x ${load.durationSeconds} s ` +
        `(+${load.warmupSeconds} s warm-up) per target, switchyard log level ${options.logLevel}` +
        `${options.postgres ? `, PostgreSQL pool_size ${options.postgresPoolSize} per instance` : ''}, ` +
        `node ${process.version}`,
    );
    const results = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= rounds; round++) {
      // Alternate the order (forward, then backward) so drift over time favours no target.
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      for (const target of order) {
        const result = await runLoad(
          {
            urls: target.urls,
            ...load,
            poolSize: options.poolSize,
            serverPids: target.pids,
            ...(target.backlogUrl === undefined ? {} : { backlogUrl: target.backlogUrl }),
          },
          secret,
        );
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
        const cpu = formatCpuUse(
          result.cpu,
          target.isSwitchyard ? 'switchyard' : target.name,
          `load generator ${result.loadCores.toFixed(2)}`,
        );
        if (cpu !== '') console.log(`      ${cpu}`);
        const { backlog } = result;
        if (backlog !== undefined) {
          console.log(
            `      still to move into the journal as the load ended: ${backlog.atEnd} events, ` +
              `moved ${backlog.drainedMs} ms later (their CPU counted)`,
          );
        }
      }
    }
    const summaries = new Map(targets.map((t) => [t.name, summarize(t.name, results.get(t.name) ?? [])]));
    console.log(`\n${formatTable([...summaries.values()])}\n`);
    const compared = compareToBaseline(results.get('sqlite-1') ?? [], results.get('baseline') ?? []);
    if (compared !== undefined) console.log(`${compared}\n`);
    return summaries;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
    if (options.cpuProfDir) {
      console.log(`daemon CPU profiles written to ${options.cpuProfDir} (open in Chrome DevTools > Performance)`);
    }
  }
}

/**
 * `sqlite-1` against `baseline`, round by round (each round ran both, a minute or less apart), then the median
 * and range of those ratios: drift on the shared machine moves both runs of a round alike and cancels out.
 */
function compareToBaseline(candidate: readonly LoadResult[], baseline: readonly LoadResult[]): string | undefined {
  if (baseline.length === 0 || baseline.length !== candidate.length) return undefined;
  const cpuPerRequest = (r: LoadResult) => ((r.cpu?.processCores ?? Number.NaN) / r.requestsPerSecond) * 1e6;
  const ratios = (f: (r: LoadResult) => number) => {
    const each = candidate.map((r, i) => f(r) / f(baseline[i] ?? r));
    const range = `${Math.min(...each).toFixed(3)}-${Math.max(...each).toFixed(3)}`;
    return `${median(each).toFixed(3)} (${range}; ${each.map((x) => x.toFixed(2)).join(' ')})`;
  };
  return (
    `sqlite-1 / baseline, per round (median, min-max; each round): CPU per request ${ratios(cpuPerRequest)}, ` +
    `req/s ${ratios((r) => r.requestsPerSecond)}`
  );
}
