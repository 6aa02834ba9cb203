import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchDatabase } from './bench-database.js';
import { startChildServer, type ChildServer } from './child-server.js';
import { freePort } from './free-port.js';
import { BENCH_SOURCE, startDaemon } from './start-daemon.js';

/** One thing the load generator measures: a server, or several instances of one behind the same load. */
export interface IngestTarget {
  readonly name: string;
  /** One per instance; the load generator spreads its connections over them. */
  readonly urls: readonly string[];
  readonly pids: readonly number[];
  readonly isSwitchyard: boolean;
  /** Where the `append` floor answers how many accepted events its worker has not moved to the journal yet. */
  readonly backlogUrl?: string;
}

export interface IngestTargetOptions {
  readonly root: string;
  /** A fresh temp dir: configs, the rules and the SQLite journal. */
  readonly dir: string;
  readonly secret: string;
  readonly logLevel: string;
  readonly nodeFlags: readonly string[];
  /** Where the PostgreSQL targets' journals go; none without it. */
  readonly postgres: BenchDatabase | undefined;
  readonly postgresPoolSize: number;
  /** Instances per PostgreSQL target, e.g. [1, 3]. */
  readonly postgresInstances: readonly number[];
  /** Another checkout with its own `dist/` (e.g. main), run as `baseline` on SQLite beside `sqlite-1`. */
  readonly baselineRoot?: string | undefined;
  /** Leave out the floors, `bare+commit`, `bare+journal` and `bare+append` (more rounds of a comparison). */
  readonly skipFloors?: boolean;
}

const ports = new Set<number>();
/** A port not handed out before in this run: freePort's ports are only free until a child binds them. */
async function nextPort(): Promise<number> {
  let port = await freePort();
  while (ports.has(port)) port = await freePort();
  ports.add(port);
  return port;
}

/**
 * Starts every target, pushing each server onto `servers` as soon as it is up (so the caller stops what was
 * started even when a later one fails): the bare server, its three floors (a durable commit, the journal, the
 * journal written later by a thread of its own), the daemon on SQLite (and another checkout's, `baseline`,
 * when given), and for each count in `postgresInstances` that many daemons on one PostgreSQL schema of their
 * own. A schema per target, not one for all: every daemon's delivery engine works on the whole journal, so
 * idle instances of another target would otherwise pick up (and be slowed by) the deliveries of the one being
 * measured.
 */
export async function startIngestTargets(
  options: IngestTargetOptions,
  servers: ChildServer[],
): Promise<IngestTarget[]> {
  const { root, dir, secret, logLevel, nodeFlags } = options;
  const url = (server: ChildServer) => `${server.origin}/webhooks/${BENCH_SOURCE}`;
  const barePort = await nextPort();
  const bare = await startChildServer({
    name: 'bare',
    args: ['--import', 'tsx', path.join(root, 'bench/bare-server.ts'), String(barePort)],
    port: barePort,
    env: { ...process.env, BENCH_SECRET: secret },
    cwd: root,
  });
  servers.push(bare);
  const targets: IngestTarget[] = [{ name: 'bare', urls: [url(bare)], pids: [bare.pid], isSwitchyard: false }];
  // The floors between the bare server and the daemon (bench/floor-server.ts): a durable commit, the journal,
  // and the journal written later by a second thread (`append`).
  for (const mode of options.skipFloors === true ? [] : (['commit', 'journal', 'append'] as const)) {
    const port = await nextPort();
    const floor = await startChildServer({
      name: `bare+${mode}`,
      args: [...nodeFlags, '--import', 'tsx', path.join(root, 'bench/floor-server.ts'), mode, String(port), dir],
      port,
      env: { ...process.env, BENCH_SECRET: secret },
      cwd: root,
    });
    servers.push(floor);
    const backlog = mode === 'append' ? { backlogUrl: `${floor.origin}/backlog` } : {};
    targets.push({ name: `bare+${mode}`, urls: [url(floor)], pids: [floor.pid], isSwitchyard: false, ...backlog });
  }

  const common = { root, dir, secret, logLevel, nodeFlags };
  const sqlite = await startDaemon({
    ...common,
    name: 'sqlite-1',
    port: await nextPort(),
    journal: { kind: 'sqlite' },
  });
  servers.push(sqlite);
  targets.push({ name: 'sqlite-1', urls: [url(sqlite)], pids: [sqlite.pid], isSwitchyard: true });
  if (options.baselineRoot !== undefined) {
    // In a dir of its own (its journal is `./journal.db` too), and first in the order: rounds alternate forward
    // and backward, so each end of the order runs twice in a row; with `sqlite-1` last (as without PostgreSQL)
    // the two daemons each get one end. With `baseline` beside `sqlite-1` instead, it alone ran twice in a row
    // and a daemon measured against itself read 0.93 of its own CPU per request (8 rounds).
    const baseDir = path.join(dir, 'baseline');
    mkdirSync(baseDir);
    const port = await nextPort();
    const baseline = await startDaemon({
      ...common,
      root: options.baselineRoot,
      dir: baseDir,
      name: 'baseline',
      port,
      journal: { kind: 'sqlite' },
    });
    servers.push(baseline);
    targets.unshift({ name: 'baseline', urls: [url(baseline)], pids: [baseline.pid], isSwitchyard: true });
  }

  const { postgres } = options;
  if (postgres === undefined) return targets;
  for (const instances of options.postgresInstances) {
    const schema = await postgres.createSchema(`ingest${instances}`);
    const journal = { kind: 'postgres', url: postgres.url, schema, poolSize: options.postgresPoolSize } as const;
    const name = `postgres-${instances}`;
    const started: ChildServer[] = [];
    // One after the other: the first migrates the schema (the others would wait on its lock anyway).
    for (let i = 1; i <= instances; i++) {
      const daemon = await startDaemon({ ...common, name: `${name}.${i}`, port: await nextPort(), journal });
      servers.push(daemon);
      started.push(daemon);
    }
    targets.push({ name, urls: started.map(url), pids: started.map((s) => s.pid), isSwitchyard: true });
  }
  return targets;
}
