/**
 * The prune benchmark (issue 10, Journal retention): ingest latency while the background pruner removes a big
 * journal's old events, against the same run without pruning. Each round copies one journal filled with
 * `events` finished events 40 days old (bench/fill-finished-journal.ts), starts the daemon on the copy
 * (bench/prune-daemon-process.ts) with its first retention pass at once (`prune`) or not within the run
 * (`baseline`), and puts the same autocannon load on it. Alternating rounds; medians. Reports, never asserts.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startChildServer } from './child-server.js';
import { fillFinishedJournal } from './fill-finished-journal.js';
import { freePort } from './free-port.js';
import { runLoad, type LoadResult } from './run-load.js';
import { BENCH_RULES, BENCH_SOURCE } from './start-daemon.js';
import { median } from './summarize.js';

export interface PruneBenchOptions {
  readonly root: string;
  readonly rounds: number;
  readonly events: number;
  /** `retention.batch_size` of the daemon. */
  readonly batchSize: number;
  readonly load: { readonly connections: number; readonly durationSeconds: number; readonly warmupSeconds: number };
  readonly poolSize: number;
  readonly logLevel: string;
}

type Mode = 'baseline' | 'prune';
interface Round {
  readonly mode: Mode;
  readonly load: LoadResult;
  /** Old events removed while the daemon ran, and for how long it ran (s). */
  readonly pruned: number;
  readonly seconds: number;
}

export async function runPruneBench(options: PruneBenchOptions): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-prune-bench-'));
  const secret = randomBytes(24).toString('hex');
  try {
    const filled = path.join(dir, 'filled.db');
    const fillStarted = performance.now();
    await fillFinishedJournal(filled, options.events);
    const fillSeconds = ((performance.now() - fillStarted) / 1000).toFixed(0);
    console.log(
      `prune benchmark: ${options.events.toLocaleString('en-US')} finished events 40 days old (filled in ${fillSeconds} s), ` +
        `${options.load.connections} connections, ${options.rounds} rounds x ${options.load.durationSeconds} s ` +
        `(+${options.load.warmupSeconds} s warm-up) per mode, retention batches of ${options.batchSize}`,
    );
    const rounds: Round[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const modes: Mode[] = round % 2 === 1 ? ['baseline', 'prune'] : ['prune', 'baseline'];
      for (const mode of modes) {
        const result = await runRound(options, { dir: path.join(dir, `${round}-${mode}`), filled, secret, mode });
        rounds.push(result);
        console.log(
          `  round ${round} ${mode.padEnd(8)} ${Math.round(result.load.requestsPerSecond)} req/s  ` +
            `p50 ${result.load.p50Ms} ms  p99 ${result.load.p99Ms} ms  ` +
            `${result.pruned.toLocaleString('en-US')} old events pruned while the daemon ran (${result.seconds.toFixed(0)} s)`,
        );
      }
    }
    console.log(`\n${pruneSummary(rounds)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runRound(
  options: PruneBenchOptions,
  round: { dir: string; filled: string; secret: string; mode: Mode },
): Promise<Round> {
  mkdirSync(round.dir);
  const journal = path.join(round.dir, 'journal.db');
  copyFileSync(round.filled, journal);
  writeFileSync(path.join(round.dir, 'rules.yaml'), BENCH_RULES);
  const port = await freePort();
  const config = path.join(round.dir, 'switchyard.yaml');
  writeFileSync(
    config,
    [
      `listen: { host: 127.0.0.1, port: ${port} }`,
      'rules: ./rules.yaml',
      'store: { sqlite: { path: ./journal.db } }',
      `sources: { ${BENCH_SOURCE}: { secrets: ["\${BENCH_SECRET}"] } }`,
      `log: { level: ${options.logLevel} }`,
      `retention: { events: 30d, batch_size: ${options.batchSize} }`,
      '',
    ].join('\n'),
  );
  const started = performance.now();
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SWITCHYARD_')));
  const daemon = await startChildServer({
    name: `switchyard-${round.mode}`,
    args: ['--import', 'tsx', path.join(options.root, 'bench/prune-daemon-process.ts'), config, firstPass(round.mode)],
    port,
    env: { ...env, BENCH_SECRET: round.secret, NODE_ENV: 'production' },
    cwd: options.root, // where `--import tsx` is found; the config's paths are relative to its own folder
    stdoutFile: path.join(round.dir, 'daemon.log'),
  });
  let load: LoadResult;
  try {
    const urls = [`${daemon.origin}/webhooks/${BENCH_SOURCE}`];
    load = await runLoad({ urls, ...options.load, poolSize: options.poolSize, serverPids: [daemon.pid] }, round.secret);
  } finally {
    await daemon.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const pruned = options.events - oldEventsLeft(journal);
  if (load.non2xx > 0 || load.errors > 0 || load.timeouts > 0) {
    const log = readFileSync(path.join(round.dir, 'daemon.log'), 'utf8').slice(-2000);
    throw new Error(`${round.mode}: ${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts\n${log}`);
  }
  rmSync(round.dir, { recursive: true, force: true });
  return { mode: round.mode, load, pruned, seconds };
}

/** At once for `prune`; an hour (never within a round) for `baseline`. */
const firstPass = (mode: Mode): string => (mode === 'prune' ? '0' : '3600000');

function oldEventsLeft(journal: string): number {
  const db = new Database(journal, { readonly: true });
  try {
    const cutoff = Date.now() - 30 * 24 * 60 * 60 * 1000;
    return Number(db.prepare('SELECT count(*) FROM events WHERE received_at < ?').pluck().get(cutoff));
  } finally {
    db.close();
  }
}

function pruneSummary(rounds: readonly Round[]): string {
  const of = (mode: Mode) => rounds.filter((r) => r.mode === mode);
  const row = (mode: Mode) => {
    const r = of(mode);
    return (
      `${mode.padEnd(8)}  req/s ${Math.round(median(r.map((x) => x.load.requestsPerSecond)))}  ` +
      `p50 ${median(r.map((x) => x.load.p50Ms))} ms  p99 ${median(r.map((x) => x.load.p99Ms))} ms  ` +
      `p99 per round ${r.map((x) => x.load.p99Ms).join(' ')}  pruned ${median(r.map((x) => x.pruned)).toLocaleString('en-US')} events`
    );
  };
  const p99 = (mode: Mode) => median(of(mode).map((x) => x.load.p99Ms));
  const rps = (mode: Mode) => median(of(mode).map((x) => x.load.requestsPerSecond));
  return [
    'medians:',
    `  ${row('baseline')}`,
    `  ${row('prune')}`,
    `ratio prune/baseline: p99 ${(p99('prune') / p99('baseline')).toFixed(2)}, req/s ${(rps('prune') / rps('baseline')).toFixed(2)}`,
  ].join('\n');
}
