import pg from 'pg';
import type { PostgresStoreOptions } from './postgres-store-options.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// bigint columns (times in ms, delivery ids, counts) come back as JS numbers instead of pg's default strings:
// every value the journal stores in them is far below 2^53. Set per pool, not on pg's global `types`, so
// nothing else in the process is affected.
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === pg.types.builtins.INT8 && format !== 'binary'
    ? Number
    : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;

/**
 * The store's connection pool. Connections never wait longer than the connection timeout, statements never
 * run longer than the statement timeout, and the schema is chosen per connection through `search_path`, so no
 * statement names it. Creating the pool opens no connection yet.
 */
export function createPostgresPool(options: PostgresStoreOptions): pg.Pool {
  const { schema, connectionTimeoutMs = 5000, statementTimeoutMs = 15_000 } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new RangeError(`schema must be lowercase letters, digits and _ (at most 63), got ${JSON.stringify(schema)}`);
  }
  for (const [name, value] of [
    ['connectionTimeoutMs', connectionTimeoutMs],
    ['statementTimeoutMs', statementTimeoutMs],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  if (options.url === undefined && options.pool === undefined) {
    throw new RangeError('createPostgresStore needs a url or pool settings');
  }
  const startupOptions = [options.pool?.options, schema === undefined ? undefined : `-c search_path=${schema}`]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
  const pool = new pg.Pool({
    application_name: 'switchyard',
    ...options.pool,
    ...(options.url === undefined ? {} : { connectionString: options.url }),
    ...(startupOptions === '' ? {} : { options: startupOptions }),
    connectionTimeoutMillis: connectionTimeoutMs,
    statement_timeout: statementTimeoutMs,
    // A transaction left open by a frozen client would hold its locks (dedupe, migrations) indefinitely.
    idle_in_transaction_session_timeout: statementTimeoutMs,
    keepAlive: true,
    types: { getTypeParser },
  });
  // An idle connection that the server closes (restart, failover) is reported here; the pool has already
  // dropped it and the next checkout opens a new one, failing as journal_unavailable while the server is
  // down. Without a listener, the 'error' event would crash the process.
  // https://node-postgres.com/apis/pool#error
  pool.on('error', () => {});
  return pool;
}
