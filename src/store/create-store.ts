import type { Clock } from '../clock.js';
import type { StoreConfig } from '../config/config.js';
import { createPostgresStore } from './postgres/create-postgres-store.js';
import { createSqliteStore } from './sqlite/create-sqlite-store.js';
import { createThreadStore } from './thread/create-thread-store.js';
import type { Store } from './store.js';

/**
 * The journal the config names: the embedded SQLite file, or the shared PostgreSQL database. Opens nothing yet.
 * `thread` (the daemon only, where the config says `store.sqlite.thread`): the SQLite journal in a thread of
 * its own (create-thread-store.ts); CLI commands open it directly.
 */
export function createStore(
  config: StoreConfig,
  options: { readonly clock?: Clock; readonly thread?: boolean } = {},
): Store {
  const { thread, ...rest } = options;
  if (config.kind === 'sqlite') {
    const sqlite = { path: config.path, busyTimeoutMs: config.busyTimeoutMs, ...rest };
    return thread === true && config.thread ? createThreadStore(sqlite) : createSqliteStore(sqlite);
  }
  return createPostgresStore({
    url: config.url,
    ...(config.schema === null ? {} : { schema: config.schema }),
    pool: { max: config.poolSize },
    ...rest,
  });
}
