import { hostname } from 'node:os';
import pg from 'pg';
import type { StoreConfig } from '../config/config.js';
import { loadConfig } from '../config/load-config.js';
import { createStore } from '../store/create-store.js';
import { describeStore } from '../store/describe-store.js';
import { readSchemaVersion } from '../store/read-schema-version.js';
import { lockSqliteJournal, type JournalLock } from '../store/sqlite/lock-sqlite-journal.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard migrate [--config FILE]

Applies the journal's numbered migrations for the configured backend (store.sqlite or store.postgres) and
prints its schema version. The daemon also does this at start; running it first, once, lets a rolling upgrade
of several instances start on a current schema. Safe to run again, and beside instances that are starting
or running: on PostgreSQL the migrations run in one transaction under an advisory lock, each exactly once.
On SQLite, beside a running daemon, a current journal is reported as such; one that needs migrations is refused
(the daemon holds it): stop the daemon, then migrate, or just start the new version, which migrates at start.
  --config FILE         the daemon's config (else $SWITCHYARD_CONFIG, else config/switchyard.yaml)
  --from sqlite:FILE    not offered: drain the SQLite instance instead (docs/deployment.md)
Exit 0 when the journal is current, 1 when it cannot be migrated.
`;

/**
 * A SQLite journal is migrated only by the process that holds it, as the daemon does at start: a schema
 * changed under a running daemon would be one its code does not know. Beside a running daemon, a journal that
 * is already current needs nothing ('running'); one that is behind is refused (`journal_locked`, naming the
 * daemon), and the daemon applies the migrations itself when restarted with the new version.
 */
function lockIfSqlite(store: StoreConfig, before: { version: number; latest: number }): JournalLock | 'running' | null {
  if (store.kind !== 'sqlite') return null;
  try {
    return lockSqliteJournal(store.path, { pid: process.pid, host: hostname(), startedAt: Date.now() });
  } catch (error) {
    if (error instanceof SwitchyardError && error.code === 'journal_locked' && before.version === before.latest) {
      return 'running';
    }
    throw error;
  }
}

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
    const lock = lockIfSqlite(config.store, before);
    if (lock === 'running') {
      io.stdout(`journal ${describeStore(config.store)}: schema version ${before.latest} (already current)\n`);
      return 0;
    }
    try {
      const store = await createStore(config.store);
      try {
        await store.migrate();
      } finally {
        await store.close();
      }
    } finally {
      lock?.release();
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
