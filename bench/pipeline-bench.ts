/**
 * The end-to-end pipeline benchmark (issue 11): distinct signed events from 64 connections for 10 s to a
 * daemon whose rules route each event to one local HTTP receiver (bench/stamping-receiver.ts) that stamps
 * when each delivery arrives; the bare server (bench/bare-server.ts) under the same load in the same run.
 * Reports ingest req/s, deliveries completed during the load, the time until the last delivery, the sustained
 * end-to-end rate, receive-to-delivered latency and the daemon's CPU per event next to the bare server's.
 * With `--pipeline-baseline DIR` (a checkout with its own `dist/`, e.g. main) that daemon runs too, in
 * alternating rounds, so a change is measured against its baseline in one invocation. `--pipeline-postgres`
 * adds the same on PostgreSQL (this checkout's daemon, and the baseline's on a schema of its own), and
 * `--pipeline-postgres-instances N` (N > 1) N instances sharing one PostgreSQL journal, the load spread over
 * them, delivering to one receiver. `--pipeline-alertmanager BINARY` adds Alertmanager under the same load (an
 * alert per request, a webhook to its own receiver), the issue's reference for the end-to-end rate. Reports,
 * never asserts.
 *
 *   npm run bench -- --only-pipeline [--pipeline-rounds 3] [--pipeline-baseline DIR] [--pipeline-cpu-prof DIR]
 *     [--pipeline-postgres [--pipeline-postgres-instances 3] [--pipeline-skip-sqlite]]
 *     [--pipeline-alertmanager /usr/bin/prometheus-alertmanager]
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAlertmanager } from './alertmanager-target.js';
import { startChildServer, type ChildServer } from './child-server.js';
import { deliveryRules } from './delivery-rules.js';
import { freePort } from './free-port.js';
import type { BenchDatabase } from './bench-database.js';
import { postgresPipelineJournal, sqlitePipelineJournal, type PipelineJournal } from './pipeline-journals.js';
import { runPipelineRound, spread, type PipelineDaemon, type PipelineRound } from './pipeline-round.js';
import { runLoad, type LoadResult } from './run-load.js';
import { smokeCheck } from './smoke.js';
import { BENCH_SOURCE, startDaemon } from './start-daemon.js';
import { median } from './summarize.js';

export interface PipelineBenchOptions {
  readonly root: string;
  readonly rounds: number;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly logLevel: string;
  /** Another checkout (with `dist/` built) whose daemon is measured beside this one's. */
  readonly baselineRoot: string | undefined;
  readonly cpuProfDir: string | undefined;
  /** With a database: a third daemon, `postgres`, of this checkout on a fresh schema (issue 11, goal 4). */
  readonly postgres?: BenchDatabase | undefined;
  readonly postgresPoolSize?: number;
  /** With a database: leave out the SQLite daemons (`--pipeline-skip-sqlite`), for PostgreSQL work alone. */
  readonly skipSqlite?: boolean;
  /** With a database and N > 1: also N instances of each checkout sharing one schema (`postgres-xN`). */
  readonly postgresInstances?: number;
  /** Extra config lines for this checkout's daemon (not the baseline's), e.g. `log: { level: warn }`. */
  readonly extraConfig?: readonly string[];
  /** Node flags for this checkout's SQLite daemon (not the baseline's), e.g. `--perf-basic-prof` for `perf`. */
  readonly nodeFlags?: readonly string[];
  /** Every daemon's target a lifecycle target (`--pipeline-lifecycle`, bench/delivery-rules.ts). */
  readonly lifecycle?: boolean;
  /** Alertmanager's binary: measured beside the daemons as the issue's reference (bench/alertmanager-target.ts). */
  readonly alertmanager?: string | undefined;
}

const int = (value: number) => Math.round(value).toLocaleString('en-US');

export async function runPipelineBench(options: PipelineBenchOptions): Promise<void> {
  const secret = randomBytes(24).toString('hex');
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-pipeline-bench-'));
  const servers: ChildServer[] = [];
  const journals: PipelineJournal[] = [];
  const load = {
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    poolSize: options.durationSeconds * 30_000,
  };
  const tsx = (script: string, port: number, env: NodeJS.ProcessEnv = process.env) =>
    startChildServer({
      name: script,
      args: ['--import', 'tsx', path.join(options.root, 'bench', script), String(port)],
      port,
      env,
      cwd: options.root,
    });
  try {
    const barePort = await freePort();
    const bare = await tsx('bare-server.ts', barePort, { ...process.env, BENCH_SECRET: secret });
    servers.push(bare);
    const bareUrl = `${bare.origin}/webhooks/${BENCH_SOURCE}`;
    await smokeCheck(bareUrl, secret, false);
    const start = async (
      name: string,
      root: string,
      extraConfig: readonly string[],
      postgres?: { database: BenchDatabase; instances: number },
      nodeFlags: readonly string[] = [],
    ): Promise<PipelineDaemon> => {
      const own = path.join(dir, name);
      mkdirSync(own);
      // One receiver for all instances: it counts the deliveries of them all.
      const receiver = await tsx('stamping-receiver.ts', await freePort());
      servers.push(receiver);
      const rules = deliveryRules({ origin: receiver.origin, concurrency: 64, lifecycle: options.lifecycle ?? false });
      const label = name.replace(/[^a-z0-9]/g, '_');
      const schema = postgres && (await postgres.database.createSchema(label));
      // The daemons' connections carry a name of their own, so their backends' CPU can be told from others'.
      const application = schema === undefined ? undefined : `switchyard_bench_${label}`;
      const instances: ChildServer[] = [];
      for (let i = 0; i < (postgres?.instances ?? 1); i += 1) {
        const instance = `${name}${i === 0 ? '' : `-${i + 1}`}`;
        const profile = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}/${instance}`] : [];
        const server = await startDaemon({
          root,
          dir: own,
          name: instance,
          secret,
          logLevel: options.logLevel,
          extraConfig,
          nodeFlags: [...profile, ...nodeFlags],
          journal:
            postgres && schema
              ? {
                  kind: 'postgres',
                  url: withApplicationName(postgres.database.url, application ?? ''),
                  schema,
                  poolSize: options.postgresPoolSize ?? 10,
                }
              : { kind: 'sqlite' },
          port: await freePort(),
          rules,
        });
        servers.push(server);
        instances.push(server);
      }
      const journal = schema
        ? await postgresPipelineJournal(options.postgres?.url ?? '', schema)
        : sqlitePipelineJournal(path.join(own, 'journal.db'));
      journals.push(journal);
      const ingestUrls = instances.map((server) => `${server.origin}/webhooks/${BENCH_SOURCE}`);
      const daemon = { name, servers: instances, receiver, journal, postgresApplication: application, ingestUrls };
      for (const url of ingestUrls) await smokeCheck(url, secret, true);
      // Warm-up, not measured: JIT, page cache, the receiver's connections.
      await runPipelineRound(daemon, { ...load, durationSeconds: 2 }, secret);
      return daemon;
    };
    const alertmanager = async (binary: string): Promise<PipelineDaemon> => {
      const receiver = await tsx('stamping-receiver.ts', await freePort());
      servers.push(receiver);
      const own = path.join(dir, 'alertmanager');
      const started = await startAlertmanager({
        binary,
        dir: own,
        port: await freePort(),
        receiverOrigin: receiver.origin,
        cwd: options.root,
      });
      servers.push(started.server);
      const { server, journal } = started;
      const daemon: PipelineDaemon = {
        name: 'alertmanager',
        servers: [server],
        receiver,
        journal,
        postgresApplication: undefined,
        ingestUrls: [`${server.origin}/api/v2/alerts`],
        loadBody: 'alert',
      };
      await runPipelineRound(daemon, { ...load, durationSeconds: 2 }, secret);
      return daemon;
    };
    const database = options.postgres;
    const onPostgres = (instances: number) => (database ? { database, instances } : undefined);
    const many = options.postgresInstances ?? 1;
    const base = options.baselineRoot;
    const sqliteOff = database !== undefined && options.skipSqlite === true;
    // This checkout's PostgreSQL daemons take the extra lines too, except a `store:` one (theirs is PostgreSQL).
    const postgresExtra = (options.extraConfig ?? []).filter((line) => !line.startsWith('store:'));
    const daemons = [
      ...(options.alertmanager ? [await alertmanager(options.alertmanager)] : []),
      ...(base && !sqliteOff ? [await start('baseline', base, [])] : []),
      ...(sqliteOff
        ? []
        : [await start('switchyard', options.root, options.extraConfig ?? [], undefined, options.nodeFlags)]),
      ...(database && base ? [await start('postgres-base', base, [], onPostgres(1))] : []),
      ...(database ? [await start('postgres', options.root, postgresExtra, onPostgres(1))] : []),
      ...(database && base && many > 1 ? [await start(`postgres-x${many}-base`, base, [], onPostgres(many))] : []),
      ...(database && many > 1
        ? [await start(`postgres-x${many}`, options.root, postgresExtra, onPostgres(many))]
        : []),
    ];
    console.log(
      `pipeline benchmark: ${options.connections} connections x ${options.durationSeconds} s, every event routed ` +
        `to one local HTTP receiver${options.lifecycle === true ? ' (a lifecycle target: keyed, references recorded)' : ''}, ` +
        `${options.rounds} rounds, log level ${options.logLevel}, node ${process.version}` +
        (options.baselineRoot ? `; baseline: ${options.baselineRoot}` : ''),
    );
    const bareRounds: LoadResult[] = [];
    const rounds = new Map<string, PipelineRound[]>(daemons.map((d) => [d.name, []]));
    for (let round = 1; round <= options.rounds; round += 1) {
      const order = [undefined, ...daemons];
      for (const daemon of round % 2 === 1 ? order : order.reverse()) {
        if (daemon === undefined) {
          const result = await runLoad({ urls: [bareUrl], ...load, warmupSeconds: 1, serverPids: [bare.pid] }, secret);
          bareRounds.push(result);
          console.log(
            `  round ${round} bare        ingest ${int(result.requestsPerSecond)} req/s  p99 ${result.p99Ms} ms  ` +
              `CPU ${int(bareCpu(result))} µs/event  (machine ${result.cpu?.machineBusyCores.toFixed(2)} cores busy)`,
          );
          continue;
        }
        const r = await runPipelineRound(daemon, load, secret);
        rounds.get(daemon.name)?.push(r);
        console.log(
          `  round ${round} ${daemon.name.padEnd(16)} ingest ${int(r.load.requestsPerSecond)} req/s  p99 ${r.load.p99Ms} ms  ` +
            `events ${int(r.events)}, delivered during load ${int(r.deliveredDuringLoad)} ` +
            `(${((r.deliveredDuringLoad / r.events) * 100).toFixed(0)}%), last +${r.afterLoadSeconds.toFixed(1)} s after, ` +
            `end-to-end ${int(r.endToEndPerSecond)}/s, latency p50 ${int(r.latencyP50Ms)} ms p99 ${int(r.latencyP99Ms)} ms, ` +
            `CPU ${int(r.cpuPerEventLoadUs)} µs/event during load, ${int(r.cpuPerEventTotalUs)} to the last delivery` +
            `${Number.isFinite(r.postgresCpuPerEventUs) ? `, PostgreSQL ${int(r.postgresCpuPerEventUs)} µs/event` : ''}` +
            `${Number.isFinite(r.backendCpuPerEventUs) ? ` (its backends ${int(r.backendCpuPerEventUs)})` : ''}` +
            `${r.extraDeliveries > 0 ? `, ${r.extraDeliveries} extra deliveries` : ''}` +
            ` (machine ${r.load.cpu?.machineBusyCores.toFixed(2)} cores busy)`,
        );
      }
    }
    console.log(formatPipelineSummary(bareRounds, rounds));
  } finally {
    await Promise.all(journals.map((journal) => journal.close()));
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
    if (options.cpuProfDir) console.log(`daemon CPU profiles written to ${options.cpuProfDir}/<daemon>`);
  }
}

/** The URL with `application_name` set (a connection-string parameter overrides the pool's own name). */
function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

const bareCpu = (result: LoadResult) => ((result.cpu?.processCores ?? Number.NaN) / result.requestsPerSecond) * 1e6;

/** Medians (min-max over the rounds) per daemon, and the ratios to the bare server's medians. */
export function formatPipelineSummary(
  bare: readonly LoadResult[],
  rounds: ReadonlyMap<string, readonly PipelineRound[]>,
): string {
  const bareRps = median(bare.map((r) => r.requestsPerSecond));
  const bareCpuUs = median(bare.map(bareCpu));
  const lines = [
    '',
    `bare: ingest ${spread(bare.map((r) => r.requestsPerSecond))} req/s, p99 ${spread(bare.map((r) => r.p99Ms))} ms, ` +
      `CPU ${spread(bare.map(bareCpu))} µs/event`,
  ];
  for (const [name, rs] of rounds) {
    const of = (f: (r: PipelineRound) => number, digits = 0) => spread(rs.map(f), digits);
    const ingest = median(rs.map((r) => r.load.requestsPerSecond));
    const cpuTotal = median(rs.map((r) => r.cpuPerEventTotalUs));
    lines.push(
      `${name}: median (min-max) over ${rs.length} rounds`,
      `  ingest req/s              ${of((r) => r.load.requestsPerSecond)}   ratio to bare ${(ingest / bareRps).toFixed(2)}`,
      `  ingest p99 ms             ${of((r) => r.load.p99Ms)}`,
      `  delivered during load     ${of((r) => (r.deliveredDuringLoad / r.events) * 100)} % of ${of((r) => r.events)} events`,
      `  last delivery after load  ${of((r) => r.afterLoadSeconds, 1)} s`,
      `  end-to-end events/s       ${of((r) => r.endToEndPerSecond)}   ratio to bare ingest ${(median(rs.map((r) => r.endToEndPerSecond)) / bareRps).toFixed(2)}`,
      `  latency p50 / p99 ms      ${of((r) => r.latencyP50Ms)} / ${of((r) => r.latencyP99Ms)}`,
      `  CPU µs/event, load        ${of((r) => r.cpuPerEventLoadUs)}   ratio to bare ${(median(rs.map((r) => r.cpuPerEventLoadUs)) / bareCpuUs).toFixed(2)}`,
      `  CPU µs/event, to the last ${of((r) => r.cpuPerEventTotalUs)}   ratio to bare ${(cpuTotal / bareCpuUs).toFixed(2)}`,
    );
    if (rs.every((r) => Number.isFinite(r.postgresCpuPerEventUs))) {
      const both = median(rs.map((r) => r.cpuPerEventTotalUs + r.postgresCpuPerEventUs));
      lines.push(
        `  PostgreSQL CPU µs/event   ${of((r) => r.postgresCpuPerEventUs)}   daemon + PostgreSQL ${int(both)}, ` +
          `ratio to bare ${(both / bareCpuUs).toFixed(2)}`,
        `  its backends µs/event     ${of((r) => r.backendCpuPerEventUs)}   (the daemons' connections only)`,
      );
    }
  }
  // Per-round ratios (each round ran both), then their median: drift on the shared machine cancels out.
  for (const [name, candidate] of rounds) {
    const baselineName = name === 'switchyard' ? 'baseline' : `${name}-base`;
    const baseline = rounds.get(baselineName);
    if (baseline === undefined || name === baselineName) continue;
    const ratio = (f: (r: PipelineRound) => number) =>
      spread(
        candidate.map((r, i) => f(r) / f(baseline[i] ?? r)),
        2,
      );
    const postgres = candidate.every((r) => Number.isFinite(r.postgresCpuPerEventUs));
    lines.push(
      `${name} / ${baselineName}, per round (median, min-max):`,
      `  ingest req/s ${ratio((r) => r.load.requestsPerSecond)}, end-to-end ${ratio((r) => r.endToEndPerSecond)}, ` +
        `CPU per event to the last ${ratio((r) => r.cpuPerEventTotalUs)}, during load ${ratio((r) => r.cpuPerEventLoadUs)}`,
      ...(postgres
        ? [
            `  PostgreSQL CPU per event ${ratio((r) => r.postgresCpuPerEventUs)}, its backends ` +
              `${ratio((r) => r.backendCpuPerEventUs)}, daemon + PostgreSQL ` +
              `${ratio((r) => r.cpuPerEventTotalUs + r.postgresCpuPerEventUs)}`,
          ]
        : []),
    );
  }
  // The issue's reference: each daemon against Alertmanager, per round (both ran in each round).
  const reference = rounds.get('alertmanager');
  for (const [name, candidate] of reference === undefined ? [] : rounds) {
    if (name === 'alertmanager') continue;
    // Only rounds that both finished (a failed round ends the run, so the lengths differ only then).
    const ratio = (f: (r: PipelineRound) => number) =>
      spread(
        candidate.flatMap((r, i) => {
          const other = reference?.[i];
          return other === undefined ? [] : [f(r) / f(other)];
        }),
        2,
      );
    lines.push(
      `${name} / alertmanager, per round (median, min-max):`,
      `  end-to-end ${ratio((r) => r.endToEndPerSecond)}   aim >= 1 (issue 11), ingest req/s ` +
        `${ratio((r) => r.load.requestsPerSecond)}, CPU per event to the last ${ratio((r) => r.cpuPerEventTotalUs)}`,
    );
  }
  return lines.join('\n');
}
