/**
 * What the PostgreSQL journal costs per event (issue 11), without HTTP and with fixed group sizes, so the
 * figure does not move with the load the way batch sizes do in the pipeline benchmark: per group of `--group`
 * events (one delivery each), the engine's cycle on one instance: ingest the group, claim its deliveries under
 * the shared pacing, record their attempts, report the verdicts. Each build (this checkout's `dist/`, and with
 * `--baseline DIR` another's) gets a fresh schema; rounds alternate the builds. Measured per event: the CPU of
 * the PostgreSQL backends serving the store (by `application_name`, from /proc), this process's CPU (the
 * store's client side: pg's protocol, parsing), and the statements sent. Reports, never asserts.
 *
 * `--keys N` gives each event's delivery one of N correlation keys (issue 14; 0: none) and each delivered
 * record references to merge, as a ticketing target's are: what a lifecycle target's records cost.
 *
 * `--backlog N` first fills each journal with N due deliveries, which every claim then takes from the front
 * while the group's own join the back: the journal as a storm leaves it, when what a claim costs may grow
 * with the backlog (it did: PostgreSQL migration 8).
 *
 *   npx tsx bench/postgres-journal-bench.ts [--baseline DIR] [--rounds 5] [--events 6000] [--group 32] [--backlog 0]
 *     [--keys 0]
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { AttemptRecord, IngestItem, Store } from '../src/store/store.js';
import type { PostgresStoreOptions } from '../src/store/postgres/postgres-store-options.js';
import { DEFAULT_BENCH_DATABASE_URL, openBenchDatabase } from './bench-database.js';
import { benchEvent } from './bench-event.js';
import { spread } from './pipeline-round.js';

const { values: flags } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    events: { type: 'string', default: '6000' },
    group: { type: 'string', default: '32' },
    backlog: { type: 'string', default: '0' },
    keys: { type: 'string', default: '0' },
  },
});
const ROUNDS = Number(flags.rounds);
const EVENTS = Number(flags.events);
const GROUP = Number(flags.group);
const BACKLOG = Number(flags.backlog);
if (!Number.isSafeInteger(BACKLOG) || BACKLOG < 0) throw new Error(`--backlog: not a count: ${flags.backlog}`);
const KEYS = Number(flags.keys);
if (!Number.isSafeInteger(KEYS) || KEYS < 0) throw new Error(`--keys: not a count: ${flags.keys}`);
const TARGET = 'receiver';
const POLICY = { rateLimit: null, concurrency: 1000, circuit: { failures: 5, cooldownMs: 30_000 }, maxDelayMs: 60_000 };

interface Build {
  readonly name: string;
  readonly store: Store;
  readonly application: string;
  readonly statements: { n: number };
}

const ticksOf = (pid: number): number => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

// Statements are counted on pg's Client, which every pool's connection is (both builds load this same pg).
const counting = { current: undefined as { n: number } | undefined };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting.current) counting.current.n += 1;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

function item(n: number): IngestItem {
  const body = Buffer.from(
    `{"event":"incident.created","data":{"n":${n},"pad":"${randomBytes(100).toString('hex')}"}}`,
  );
  const receivedAt = Date.now();
  const keys = KEYS > 0 ? { keys: [`inc_bench_${Math.abs(n) % KEYS}`] } : {};
  return {
    event: benchEvent(body, receivedAt, ['main']),
    targets: [TARGET],
    dedupeSince: receivedAt - 60_000,
    ...keys,
  };
}

const PHASES = ['ingest', 'claim', 'record', 'report'] as const;
type Phases = Record<(typeof PHASES)[number], number>;

/**
 * One group's cycle; `phase` is called after each step (the backend's ticks are read there, so each step's
 * share is the sum of its differences: 10 ms ticks, unbiased over many groups).
 */
async function cycle(store: Store, from: number, phase: (name: keyof Phases) => void = () => {}): Promise<void> {
  const shared = store.sharedTargets;
  if (shared === undefined) throw new Error('a PostgreSQL store has sharedTargets');
  await store.ingest(Array.from({ length: GROUP }, (_, i) => item(from + i)));
  phase('ingest');
  const now = Date.now();
  const { claims } = await shared.claim({ target: TARGET, now, limit: GROUP, leaseMs: 60_000, policy: POLICY });
  phase('claim');
  const records = claims.map((claimed): AttemptRecord => ({
    deliveryId: claimed.delivery.id,
    claimToken: claimed.claimToken,
    attempt: { startedAt: now, durationMs: 1, outcome: 'delivered', statusCode: 200, detail: null },
    next: { state: 'delivered', nextAttemptAt: now, lastError: null },
    ...(KEYS > 0 ? { references: { merge: { ticket: `SOC-${claimed.delivery.id}` } } } : {}),
  }));
  await store.recordAttempts(records);
  phase('record');
  await shared.report(
    claims.map((claimed) => ({
      target: TARGET,
      kind: 'delivered' as const,
      at: now,
      policy: POLICY,
      claimToken: claimed.claimToken,
    })),
  );
  phase('report');
}

async function backendPids(client: pg.Client, application: string): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    application,
  ]);
  return rows.map((row) => row.pid);
}

interface Round {
  readonly serverUs: number;
  readonly clientUs: number;
  readonly statements: number;
  readonly eventsPerSecond: number;
  /** The backend's CPU per event in each step of the cycle. */
  readonly phases: Phases;
}

async function round(build: Build, events: number, watcher: pg.Client): Promise<Round> {
  // The pool keeps its connections while busy; the first cycle opens them, so measure from the second on.
  await cycle(build.store, 0);
  const pids = await backendPids(watcher, build.application);
  const ticks0 = pids.reduce((sum, pid) => sum + ticksOf(pid), 0);
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  build.statements.n = 0;
  counting.current = build.statements;
  const phases: Phases = { ingest: 0, claim: 0, record: 0, report: 0 };
  let last = ticks0;
  const phase = (name: keyof Phases) => {
    const ticks = pids.reduce((sum, pid) => sum + ticksOf(pid), 0);
    phases[name] += ticks - last;
    last = ticks;
  };
  for (let n = 0; n < events; n += GROUP) await cycle(build.store, n, phase);
  counting.current = undefined;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const now = await backendPids(watcher, build.application);
  if (now.join() !== pids.join()) console.log(`  (${build.name}: its backends changed during the round)`);
  const ticks1 = pids.reduce((sum, pid) => sum + ticksOf(pid), 0);
  return {
    serverUs: (((ticks1 - ticks0) / 100) * 1e6) / events,
    clientUs: (cpu.user + cpu.system) / events,
    statements: build.statements.n / events,
    eventsPerSecond: events / seconds,
    phases: Object.fromEntries(PHASES.map((name) => [name, ((phases[name] / 100) * 1e6) / events])) as Phases,
  };
}

const url = process.env.SWITCHYARD_BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
const database = await openBenchDatabase(url);
if ('unreachable' in database) throw new Error(`${url}: ${database.unreachable}`);
const watcher = new pg.Client({ connectionString: url });
await watcher.connect();
const builds: Build[] = [];
try {
  const roots = [
    ...(flags.baseline ? [['baseline', path.resolve(flags.baseline)] as const] : []),
    ['this', path.resolve(import.meta.dirname, '..')] as const,
  ];
  for (const [name, root] of roots) {
    const module = (await import(
      pathToFileURL(path.join(root, 'dist/store/postgres/create-postgres-store.js')).href
    )) as { createPostgresStore: (options: PostgresStoreOptions) => Store };
    const schema = await database.createSchema(`journal_${name}`);
    const application = `switchyard_jbench_${name}`;
    const withName = new URL(url);
    withName.searchParams.set('application_name', application);
    // Pool of 1: every statement on the one backend measured, as one instance's group commits are serial.
    const store = module.createPostgresStore({ url: withName.toString(), schema, pool: { max: 1 } });
    await store.migrate();
    for (let n = 0; n < BACKLOG; n += 1_000) {
      await store.ingest(Array.from({ length: Math.min(1_000, BACKLOG - n) }, (_, i) => item(-1 - n - i)));
    }
    builds.push({ name, store, application, statements: { n: 0 } });
  }
  console.log(
    `PostgreSQL journal benchmark: ${EVENTS} events per round in groups of ${GROUP} (ingest, paced claim, record, ` +
      `report), ${ROUNDS} rounds, ${BACKLOG} due deliveries ahead of them, ${KEYS} correlation keys; ${database.serverInfo}`,
  );
  for (const build of builds) await round(build, GROUP * 20, watcher); // warm-up: JIT, plans, pages
  const results = new Map<string, Round[]>(builds.map((build) => [build.name, []]));
  for (let r = 1; r <= ROUNDS; r += 1) {
    for (const build of r % 2 === 1 ? builds : [...builds].reverse()) {
      const result = await round(build, EVENTS, watcher);
      results.get(build.name)?.push(result);
      console.log(
        `  round ${r} ${build.name.padEnd(8)} PostgreSQL backend ${result.serverUs.toFixed(1)} µs/event, ` +
          `client ${result.clientUs.toFixed(1)} µs/event, ${result.statements.toFixed(3)} statements/event, ` +
          `${Math.round(result.eventsPerSecond)} events/s; backend per step: ` +
          PHASES.map((name) => `${name} ${result.phases[name].toFixed(0)}`).join(', '),
      );
    }
  }
  for (const [name, rs] of results) {
    console.log(
      `${name}: PostgreSQL backend ${spread(
        rs.map((r) => r.serverUs),
        1,
      )} µs/event, client ${spread(
        rs.map((r) => r.clientUs),
        1,
      )} µs/event, statements ${spread(
        rs.map((r) => r.statements),
        3,
      )}/event, ${spread(rs.map((r) => r.eventsPerSecond))} events/s; backend µs/event per step: ` +
        PHASES.map((step) => `${step} ${spread(rs.map((r) => r.phases[step]))}`).join(', '),
    );
  }
  const base = results.get('baseline');
  const mine = results.get('this');
  if (base && mine) {
    const ratio = (f: (r: Round) => number) =>
      spread(
        mine.map((r, i) => f(r) / f(base[i] ?? r)),
        2,
      );
    console.log(
      `this / baseline per round: PostgreSQL backend ${ratio((r) => r.serverUs)}, client ${ratio((r) => r.clientUs)}, ` +
        `statements ${ratio((r) => r.statements)}, events/s ${ratio((r) => r.eventsPerSecond)}`,
    );
  }
} finally {
  for (const build of builds) await build.store.close();
  await watcher.end();
  await database.close();
}
