import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import {
  commitInOneRoundTrip,
  withPostgresTransaction,
} from '../../../src/store/postgres/with-postgres-transaction.js';
import { describePostgres } from '../describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../temp-postgres-journal.js';

describePostgres('withPostgresTransaction', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const notices: string[] = [];
  /** A pool of one connection, on a table `t (v int)` of a schema of its own. */
  async function setup(): Promise<{ pool: pg.Pool; values: () => Promise<number[]>; idle: () => Promise<string> }> {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    await journal.sql('CREATE TABLE t (v int)');
    const application = `with_transaction_${journal.schema}`;
    const pool = new pg.Pool({
      connectionString: testDatabaseUrl,
      options: `-c search_path=${journal.schema}`,
      application_name: application,
      max: 1,
    });
    cleanups.push(() => pool.end());
    // A COMMIT outside a transaction is no error, only this warning: a second COMMIT would show here.
    pool.on('connect', (client) => client.on('notice', (notice) => notices.push(notice.message ?? '')));
    const values = async () => (await pool.query<{ v: number }>('SELECT v FROM t ORDER BY v')).rows.map((r) => r.v);
    // What the pool's connection is doing, seen from another one: 'idle', not 'idle in transaction'.
    const idle = async () => {
      const other = await journal.connect();
      try {
        const { rows } = await other.query<{ state: string }>(
          'SELECT state FROM pg_stat_activity WHERE application_name = $1',
          [application],
        );
        return rows.map((row) => row.state).join();
      } finally {
        await other.end();
      }
    };
    return { pool, values, idle };
  }

  it('hands work the results of the statements sent with the BEGIN, one per statement', async () => {
    const { pool } = await setup();
    const opened = await withPostgresTransaction(
      pool,
      async (_, results) => results.map((r) => r.rows),
      'SELECT 1 AS a; SELECT 2 AS b',
    );
    expect(opened).toEqual([[{ a: 1 }], [{ b: 2 }]]);
  });

  it('commits with the last statement when work sends it with commitWith, and sends no second COMMIT', async () => {
    const { pool, values, idle } = await setup();
    const returned = await withPostgresTransaction(pool, async (client, _, commitWith) => {
      await client.query('INSERT INTO t VALUES (1)');
      return (await commitWith('INSERT INTO t VALUES (2) RETURNING v')).rows;
    });
    expect(returned).toEqual([{ v: 2 }]);
    expect(await values()).toEqual([1, 2]);
    expect(await idle()).toBe('idle');
    expect(notices).toEqual([]);
  });

  it('rolls back everything when the statement sent with the COMMIT fails, and keeps the connection usable', async () => {
    const { pool, values, idle } = await setup();
    await expect(
      withPostgresTransaction(pool, async (client, _, commitWith) => {
        await client.query('INSERT INTO t VALUES (1)');
        return commitWith('INSERT INTO t VALUES (1 / 0)');
      }),
    ).rejects.toThrow('division by zero');
    expect(await values()).toEqual([]);
    expect(await idle()).toBe('idle');
    await withPostgresTransaction(pool, async (client) => client.query('INSERT INTO t VALUES (3)'));
    expect(await values()).toEqual([3]);
  });

  it('commitInOneRoundTrip sends BEGIN, the statements and COMMIT as one string, and hands back their results', async () => {
    const { pool, values, idle } = await setup();
    const results = await commitInOneRoundTrip(pool, 'INSERT INTO t VALUES (1), (2); SELECT count(*)::int AS n FROM t');
    expect(results.map((result) => result.rows)).toEqual([[], [{ n: 2 }]]);
    expect(await values()).toEqual([1, 2]);
    expect(await idle()).toBe('idle');
    expect(notices).toEqual([]);
  });

  it('commitInOneRoundTrip rolls back all of it when a statement fails, and keeps the connection usable', async () => {
    const { pool, values, idle } = await setup();
    await expect(commitInOneRoundTrip(pool, 'INSERT INTO t VALUES (1); INSERT INTO t VALUES (1 / 0)')).rejects.toThrow(
      'division by zero',
    );
    expect(await values()).toEqual([]);
    expect(await idle()).toBe('idle');
    await commitInOneRoundTrip(pool, 'INSERT INTO t VALUES (3)');
    expect(await values()).toEqual([3]);
  });
});
