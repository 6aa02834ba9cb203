import type { Clock } from '../clock.js';
import type { StoreConfig } from '../config/config.js';
import { createSqliteStore } from './sqlite/create-sqlite-store.js';
import type { Store } from './store.js';

/**
 * The journal the config names: the embedded SQLite file, or the shared PostgreSQL database. Opens nothing yet.
 * The PostgreSQL adapter (and `pg`) is loaded only when the config names PostgreSQL: a SQLite daemon does not
 * hold it.
 */
export async function createStore(config: StoreConfig, options: { readonly clock?: Clock } = {}): Promise<Store> {
  if (config.kind === 'sqlite') {
    return createSqliteStore({ path: config.path, busyTimeoutMs: config.busyTimeoutMs, ...options });
  }
  const { createPostgresStore } = await import('./postgres/create-postgres-store.js');
  return createPostgresStore({
    url: config.url,
    ...(config.schema === null ? {} : { schema: config.schema }),
    pool: { max: config.poolSize },
    ...options,
  });
}
