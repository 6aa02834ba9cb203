#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { runCheck } from './check-command.js';
import { runDeliveries } from './deliveries-command.js';
import { runIncidents } from './incidents-command.js';
import { runDemoCommand } from './demo-command.js';
import { runDoctor } from './doctor-command.js';
import { runKeys } from './keys-command.js';
import { runMigrate } from './migrate-command.js';
import { runPrune } from './prune-command.js';
import { runReferences } from './references-command.js';
import { runReplay } from './replay-command.js';
import { runSkip } from './skip-command.js';
import type { CliCommand, CliIo } from './cli-io.js';
import { runRoute } from './route-command.js';
import { runServe } from './serve-command.js';
import { runSilence } from './silence-command.js';
import { runSubscribe } from './subscribe-command.js';
import { runTest } from './test-command.js';

const COMMANDS: Readonly<Record<string, CliCommand>> = {
  serve: runServe,
  check: runCheck,
  route: runRoute,
  test: runTest,
  deliveries: runDeliveries,
  incidents: runIncidents,
  replay: runReplay,
  skip: runSkip,
  references: runReferences,
  demo: runDemoCommand,
  subscribe: runSubscribe,
  doctor: runDoctor,
  keys: runKeys,
  migrate: runMigrate,
  prune: runPrune,
  silence: runSilence,
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
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`switchyard: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
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
