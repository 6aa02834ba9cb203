import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the PostgreSQL part of the benchmark runs: trust auth on the local server by default. */
export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The benchmark's PostgreSQL database. Every journal it needs gets a fresh schema named
 * `switchyard_bench_<random>_<label>`, so a run never reads another run's rows (or a developer's), and
 * `close()` drops them all, CASCADE. A run killed before that leaves them behind: `\dn switchyard_bench_*`.
 */
export interface BenchDatabase {
  readonly url: string;
  /** The URL without its password, for messages. */
  readonly shownUrl: string;
  /** The server's version and the settings that decide what a commit costs, e.g. `PostgreSQL 15.20, fsync on, ...`. */
  readonly serverInfo: string;
  /** Creates an empty schema; the store's `migrate()` adds the journal's tables. */
  createSchema(label: string): Promise<string>;
  /**
   * Copies the journal's rows from one migrated schema into another, server-side, then ANALYZEs, so each
   * delivery round starts from the same journal without refilling it through the store (the SQLite part copies
   * a template file the same way). Column lists are not named: both schemas come from the same migrations.
   */
  copyJournal(from: string, to: string): Promise<void>;
  dropSchema(schema: string): Promise<void>;
  /** Drops every schema it created, then disconnects. */
  close(): Promise<void>;
}

export const maskUrl = (url: string): string => url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');

/** Connects, or returns why it could not, so the caller can skip the PostgreSQL part with a clear message. */
export async function openBenchDatabase(url: string): Promise<BenchDatabase | { readonly unreachable: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {}); // a server going away later fails the next query instead of crashing the run
  let serverInfo = '';
  try {
    await client.connect();
    // A commit's cost depends on these: with fsync or synchronous_commit off the figures would flatter PostgreSQL.
    const { rows } = await client.query<Record<string, string>>(
      `SELECT current_setting('server_version') AS version, current_setting('fsync') AS fsync,
         current_setting('synchronous_commit') AS synchronous_commit, current_setting('shared_buffers') AS shared_buffers`,
    );
    const settings = rows[0] ?? {};
    serverInfo = [
      `PostgreSQL ${settings.version}`,
      ...['fsync', 'synchronous_commit', 'shared_buffers'].map((name) => `${name} ${settings[name]}`),
    ].join(', ');
  } catch (error) {
    await client.end().catch(() => undefined);
    return { unreachable: error instanceof Error ? error.message || error.constructor.name : String(error) };
  }
  const prefix = `switchyard_bench_${randomBytes(4).toString('hex')}`;
  const created = new Set<string>();
  const database: BenchDatabase = {
    url,
    shownUrl: maskUrl(url),
    serverInfo,
    async createSchema(label) {
      // The label is ours (letters, digits, _), so the name needs no quoting; the store checks it too.
      const schema = `${prefix}_${label}`;
      await client.query(`CREATE SCHEMA ${schema}`);
      created.add(schema);
      return schema;
    },
    async copyJournal(from, to) {
      for (const table of ['events', 'deliveries', 'attempts']) {
        await client.query(`INSERT INTO ${to}.${table} SELECT * FROM ${from}.${table}`);
        await client.query(`ANALYZE ${to}.${table}`);
      }
    },
    async dropSchema(schema) {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      created.delete(schema);
    },
    async close() {
      try {
        for (const schema of [...created]) await database.dropSchema(schema);
      } finally {
        await client.end();
      }
    },
  };
  return database;
}
