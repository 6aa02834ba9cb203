import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';

/** The daemon's journal: a SQLite file in its dir, or a schema of a PostgreSQL database that several share. */
export type DaemonJournal =
  | { readonly kind: 'sqlite' }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string; readonly poolSize: number };

/**
 * The `node` flags the daemon ships with (Dockerfile, `npm start`): a 2 MB young generation
 * (docs/decisions/load-optional-modules-on-use.md). `nodeFlags` come after them, so they can override.
 */
export const DAEMON_NODE_FLAGS = ['--max-semi-space-size=2'] as const;

export interface DaemonOptions {
  /** The checkout; the daemon runs from its compiled `dist/`. */
  readonly root: string;
  /** A temp dir for the config, the rules and the SQLite journal; daemons may share it if `name`s differ. */
  readonly dir: string;
  /** Names its config file and its errors; default `switchyard`. */
  readonly name?: string;
  readonly journal: DaemonJournal;
  readonly port: number;
  readonly secret: string;
  readonly logLevel: string;
  /** Extra top-level config lines, e.g. `max_connections: 100000`. */
  readonly extraConfig?: readonly string[];
  /** Extra `node` flags after DAEMON_NODE_FLAGS, e.g. `--cpu-prof`. */
  readonly nodeFlags?: readonly string[];
  /** A program that runs `node` itself, with its arguments, e.g. `['valgrind', '--tool=callgrind']`. */
  readonly wrapper?: readonly string[];
  /** How long the daemon may take to be ready; child-server.ts's default when not given. */
  readonly readyTimeoutMs?: number;
  /** The rules file; default BENCH_RULES. */
  readonly rules?: string;
}

/** The source the load generator posts to: `POST /webhooks/monitor`. */
export const BENCH_SOURCE = 'monitor';

/** The route every benchmark event matches, and its targets: two deliveries per event. */
export const BENCH_ROUTE = 'serious-incidents';
export const BENCH_ROUTE_TARGETS = ['soc-slack', 'ticketing'] as const;

// A small but realistic rule set: the benchmark's events (incident.created, severity high) match the first
// route, so every request routes, journals the event and queues two deliveries in one transaction.
export const BENCH_RULES = `# Written by bench/start-daemon.ts for the ingest benchmark.
targets:
  soc-slack: { type: slack, webhook_url: "https://hooks.slack.invalid/services/T000/B000/XXXX" }
  ticketing: { type: http, url: "https://tickets.invalid/api/events" }
routes:
  - name: ${BENCH_ROUTE}
    match:
      event: "incident.*"
      severity: { at_least: high }
    to: [${BENCH_ROUTE_TARGETS.join(', ')}]
  - name: agents
    match:
      event: "agent.*"
    to: [ticketing]
fallback: [soc-slack]
`;

/**
 * Starts `node dist/cli/main.js serve` in a child process with a config written to `dir`, its log lines
 * (one JSON line per event) going to /dev/null, and waits for `/readyz`.
 */
export function startDaemon(options: DaemonOptions): Promise<ChildServer> {
  const name = options.name ?? 'switchyard';
  const { journal } = options;
  const config = [
    '# Written by bench/start-daemon.ts for the ingest benchmark.',
    `listen: { host: 127.0.0.1, port: ${options.port} }`,
    'rules: ./rules.yaml',
    // An extra `store:` line (`--pipeline-config 'store: { sqlite: { path: ./journal.db, busy_timeout: 5s } }'`)
    // replaces the SQLite one.
    journal.kind === 'sqlite'
      ? (options.extraConfig ?? []).some((line) => line.startsWith('store:'))
        ? ''
        : 'store: { sqlite: { path: ./journal.db } }'
      : // As in production: the URL (it may hold a password) comes from the environment, not the file.
        `store: { postgres: { url: "\${DATABASE_URL}", schema: ${journal.schema}, pool_size: ${journal.poolSize} } }`,
    `sources: { ${BENCH_SOURCE}: { secrets: ["\${BENCH_SECRET}"] } }`,
    `log: { level: ${options.logLevel} }`,
    ...(options.extraConfig ?? []),
    '',
  ].join('\n');
  const configFile = path.join(options.dir, `${name}.yaml`);
  writeFileSync(configFile, config);
  writeFileSync(path.join(options.dir, 'rules.yaml'), options.rules ?? BENCH_RULES);

  // Settings from the developer's shell (SWITCHYARD_PORT, ...) would override the file: leave them out.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SWITCHYARD_')));
  const nodeArgs = [
    ...DAEMON_NODE_FLAGS,
    ...(options.nodeFlags ?? []),
    path.join(options.root, 'dist/cli/main.js'),
    'serve',
    '--config',
    configFile,
  ];
  const [wrapper, ...wrapperArgs] = options.wrapper ?? [];
  return startChildServer({
    name,
    ...(wrapper === undefined
      ? { args: nodeArgs }
      : { command: wrapper, args: [...wrapperArgs, process.execPath, ...nodeArgs] }),
    ...(options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: options.readyTimeoutMs }),
    port: options.port,
    env: {
      ...env,
      BENCH_SECRET: options.secret,
      NODE_ENV: 'production',
      ...(journal.kind === 'postgres' ? { DATABASE_URL: journal.url } : {}),
    },
    cwd: options.dir,
  });
}
