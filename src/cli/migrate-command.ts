import pg from 'pg';
import { loadConfig } from '../config/load-config.js';
import { createStore } from '../store/create-store.js';
import { describeStore } from '../store/describe-store.js';
import { readSchemaVersion } from '../store/read-schema-version.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard migrate [--config FILE]

Applies the journal's numbered migrations for the configured backend (store.sqlite or store.postgres) and
prints its schema version. The daemon also does this at start; running it first, once, lets a rolling upgrade
of several instances start on a current schema. Safe to run again, and beside instances that are starting
or running: on PostgreSQL the migrations run in one transaction under an advisory lock, each exactly once.
  --config FILE         the daemon's config (else $SWITCHYARD_CONFIG, else config/switchyard.yaml)
  --from sqlite:FILE    not offered: drain the SQLite instance instead (docs/deployment.md)
Exit 0 when the journal is current, 1 when it cannot be migrated.
`;

/** `switchyard migrate`: brings the configured journal's schema up to date. */
export const runMigrate: CliCommand = async (args, io) => {
  const options = { config: { type: 'string', short: 'c' }, from: { type: 'string' } } as const;
  const parsed = parseCommandArgs(args, options, { min: 0, max: 0 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  if (parsed.values.from !== undefined) {
    io.stderr(
      'switchyard migrate: --from is not offered: moving a SQLite journal is not needed, drain it instead: ' +
        'stop sending it webhooks, let its deliveries finish, then switch (docs/deployment.md)\n',
    );
    return 2;
  }
  try {
    // Webhook secrets are not needed to migrate; the database URL is.
    const configFile = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;
    const config = loadConfig({ file: configFile, env: io.env, cwd: io.cwd, requireEnv: false });
    const before = await readSchemaVersion(config.store);
    const store = createStore(config.store);
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
    const change = before.version === before.latest ? 'already current' : `was ${before.version}`;
    io.stdout(`journal ${describeStore(config.store)}: schema version ${before.latest} (${change})\n`);
    return 0;
  } catch (error) {
    if (error instanceof SwitchyardError) {
      io.stderr(`switchyard migrate: ${error.code}: ${error.message}\n`);
      return 1;
    }
    // PostgreSQL refusing the DDL (permission denied to create the schema, say): its message names no secret.
    if (error instanceof pg.DatabaseError) {
      io.stderr(`switchyard migrate: the database refused: ${error.message} (SQLSTATE ${error.code ?? '?'})\n`);
      return 1;
    }
    throw error;
  }
};
