import type { Clock } from '../clock.js';
import type { StoreConfig } from '../config/config.js';
import { createPostgresStore } from './postgres/create-postgres-store.js';
import { createSqliteStore } from './sqlite/create-sqlite-store.js';
import type { Store } from './store.js';

/** The journal the config names: the embedded SQLite file, or the shared PostgreSQL database. Opens nothing yet. */
export function createStore(config: StoreConfig, options: { readonly clock?: Clock } = {}): Store {
  if (config.kind === 'sqlite') {
    return createSqliteStore({ path: config.path, busyTimeoutMs: config.busyTimeoutMs, ...options });
  }
  return createPostgresStore({
    url: config.url,
    ...(config.schema === null ? {} : { schema: config.schema }),
    pool: { max: config.poolSize },
    ...options,
  });
}
