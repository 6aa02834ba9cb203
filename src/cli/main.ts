#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import type { CliCommand, CliIo } from './cli-io.js';

// Each command is loaded when it runs: the daemon (`serve`) must not hold what only `migrate` (pg), `doctor`
// (nodemailer) or `demo` (smtp-server) need.
const COMMANDS: Readonly<Record<string, () => Promise<CliCommand>>> = {
  serve: async () => (await import('./serve-command.js')).runServe,
  check: async () => (await import('./check-command.js')).runCheck,
  route: async () => (await import('./route-command.js')).runRoute,
  test: async () => (await import('./test-command.js')).runTest,
  deliveries: async () => (await import('./deliveries-command.js')).runDeliveries,
  incidents: async () => (await import('./incidents-command.js')).runIncidents,
  replay: async () => (await import('./replay-command.js')).runReplay,
  skip: async () => (await import('./skip-command.js')).runSkip,
  references: async () => (await import('./references-command.js')).runReferences,
  demo: async () => (await import('./demo-command.js')).runDemoCommand,
  subscribe: async () => (await import('./subscribe-command.js')).runSubscribe,
  doctor: async () => (await import('./doctor-command.js')).runDoctor,
  keys: async () => (await import('./keys-command.js')).runKeys,
  migrate: async () => (await import('./migrate-command.js')).runMigrate,
  prune: async () => (await import('./prune-command.js')).runPrune,
  silence: async () => (await import('./silence-command.js')).runSilence,
};

const USAGE = `usage: switchyard <command> [options]

commands:
  serve [--config FILE]                 run the daemon (config: --config, $SWITCHYARD_CONFIG, config/switchyard.yaml)
  check [RULES] [--no-env]              validate a rules file; exit 1 on errors
  route [RULES] [--event FILE] [--json] show which routes and targets an event (file or stdin) reaches
  test  [RULES] TESTS.yaml              run routing test cases; exit 1 on any failure
  deliveries [ID] [filters] [--json]    list deliveries (or one, with its attempts) from the journal
  incidents [show KEY] [filters] [--json]  list incident records (or one, with its events and deliveries)
  replay ID... | [filters]              re-queue dead (or delivered) deliveries as new attempts
  skip ID... --reason TEXT              give up on dead deliveries so their key's later ones go on (recorded)
  references set|clear TARGET KEY ...   set or forget what a lifecycle target remembers for a key (recorded)
  demo [--keep]                         run rules.example.yaml against local stand-ins and show what was delivered
  subscribe --base-url URL --url PUBLIC_URL --events K1,K2 [--write-env-file FILE]
                                        create the webhook subscription at the monitoring service, store its secret
  doctor [--config FILE] [--base-url URL]  check config, rules, journal, targets and API key; OK/WARN/FAIL each
  keys new --name NAME [--scope read,replay]  make an admin API key: prints it once, and its hash for the config
  migrate [--config FILE]               apply the journal's migrations (SQLite or PostgreSQL), print its schema version
  prune [--config FILE] [--dry-run] [--vacuum]  remove what retention allows now (or say what would go)
  silence add|list|update|expire        hold back matching events' deliveries for a while (recorded, not sent)

RULES defaults to $SWITCHYARD_RULES, else ./rules.yaml. See docs/ and README.md.
`;

const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === 'version') {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    io.stdout(`${pkg.version}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr(`switchyard: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  const command = await load();
  try {
    return await command(rest, io);
  } catch (error) {
    // parseArgs throws for unknown flags; anything else here is a bug worth a stack trace.
    const coded = error as { code?: string; message?: string };
    if (coded.code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`switchyard ${name}: ${coded.message}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
// The daemon's own resources are closed by then; stray handles (a slow client socket) must not keep us up.
if (process.argv[2] === 'serve') process.exit();
