import type { Clock } from '../clock.js';
import type { StoreConfig } from '../config/config.js';
import { createSqliteStore } from './sqlite/create-sqlite-store.js';
import { createThreadStore } from './thread/create-thread-store.js';
import type { Store } from './store.js';

/**
 * The journal the config names: the embedded SQLite file, or the shared PostgreSQL database. Opens nothing yet.
 * `thread` (the daemon only, where the config says `store.sqlite.thread`): the SQLite journal in a thread of
 * its own (create-thread-store.ts); CLI commands open it directly. The PostgreSQL adapter (and `pg`) is loaded
 * only when the config names PostgreSQL: a SQLite daemon does not hold it.
 */
export async function createStore(
  config: StoreConfig,
  options: {
    readonly clock?: Clock;
    readonly thread?: boolean;
    /** With `thread`: called once if the journal's thread dies (it is not started again). */
    readonly onThreadDeath?: (reason: string) => void;
  } = {},
): Promise<Store> {
  const { thread, onThreadDeath, ...rest } = options;
  if (config.kind === 'sqlite') {
    const sqlite = { path: config.path, busyTimeoutMs: config.busyTimeoutMs, ...rest };
    if (thread !== true || !config.thread) return createSqliteStore(sqlite);
    return createThreadStore(sqlite, onThreadDeath === undefined ? {} : { onDeath: onThreadDeath });
  }
  const { createPostgresStore } = await import('./postgres/create-postgres-store.js');
  return createPostgresStore({
    url: config.url,
    ...(config.schema === null ? {} : { schema: config.schema }),
    pool: { max: config.poolSize },
    ...rest,
  });
}
