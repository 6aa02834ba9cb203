import { existsSync } from 'node:fs';
import { loadConfig } from '../config/load-config.js';
import { createStore } from '../store/create-store.js';
import type { Store } from '../store/store.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliIo } from './cli-io.js';

/**
 * The journal named by the daemon's config (`--config`, `$SWITCHYARD_CONFIG`, or the default), for commands
 * that read or re-queue deliveries. It is opened beside a running daemon: SQLite's WAL lets both work, and
 * writes wait for the daemon's lock up to the configured busy timeout; PostgreSQL serves any number of
 * clients. Webhook secrets are not needed here.
 */
export async function openJournal(configFile: string | undefined, io: CliIo): Promise<Store> {
  const config = loadConfig({ file: configFile, env: io.env, cwd: io.cwd, requireEnv: false });
  const { store } = config;
  if (store.kind === 'postgres') return createStore(store);
  if (!existsSync(store.path)) {
    throw new SwitchyardError('journal_missing', `no journal at ${store.path}: has the daemon run with this config?`);
  }
  return createStore({ ...store, busyTimeoutMs: Math.max(store.busyTimeoutMs, 5_000) });
}
