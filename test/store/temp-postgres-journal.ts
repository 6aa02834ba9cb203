import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import type { PostgresStoreOptions } from '../../src/store/postgres/postgres-store-options.js';
import type { Store } from '../../src/store/store.js';
import type { TestJournal } from './store-contract.js';

/** The database the PostgreSQL tests use; each journal lives in a schema of its own there. */
export const testDatabaseUrl = process.env.SWITCHYARD_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TempPostgresJournal = TestJournal & {
  readonly schema: string;
  /** Opens a store on this journal with extra options (two pools on one journal, short timeouts, ...). */
  openWith(options: Omit<PostgresStoreOptions, 'url' | 'schema'>): Store;
  /** A connection of its own with the journal's schema on the search_path; the caller ends it. */
  connect(): Promise<pg.Client>;
  /** Runs one statement on a connection of its own, with the journal's schema on the search_path. */
  sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
};

/** A fresh schema with a random name in the test database, dropped (with everything in it) by `dispose()`. */
export async function tempPostgresJournal(
  options: Omit<PostgresStoreOptions, 'url' | 'schema'> = {},
): Promise<TempPostgresJournal> {
  const schema = `switchyard_test_${randomBytes(6).toString('hex')}`;
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({
      connectionString: testDatabaseUrl,
      options: `-c search_path=${schema}`,
      connectionTimeoutMillis: 5000,
    });
    await client.connect();
    return client;
  };
  const sql = async <R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> => {
    const client = await connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  await sql(`CREATE SCHEMA ${schema}`);
  const openWith = (extra: Omit<PostgresStoreOptions, 'url' | 'schema'>) =>
    createPostgresStore({ ...options, ...extra, url: testDatabaseUrl, schema });
  return {
    schema,
    connect,
    sql,
    openWith,
    open: async () => openWith({}),
    dispose: async () => {
      await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}
