import type pg from 'pg';

/**
 * Runs `work` in one transaction on a pooled connection: COMMIT when it resolves, ROLLBACK when it throws.
 * `opening`, statements without parameters (their values written into them, escaped), goes with the BEGIN
 * in one round trip (the simple query protocol takes several statements); `work` then gets their results, one
 * per statement. `work` may end with `commitWith(statement)`, which sends its last statement (values written
 * in) with the COMMIT, again in one round trip. Each round trip costs the daemon a socket write and a wake-up
 * of the server process, and holds the transaction's row locks that much longer (issue 11).
 * https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-MULTI-STATEMENT
 */
export async function withPostgresTransaction<T>(
  pool: pg.Pool,
  work: (
    client: pg.PoolClient,
    opened: readonly pg.QueryResult[],
    commitWith: (statement: string) => Promise<pg.QueryResult>,
  ) => Promise<T>,
  opening?: string,
): Promise<T> {
  return inTransaction(pool, async (client) => {
    let committed = false;
    const commitWith = async (statement: string): Promise<pg.QueryResult> => {
      // A failing statement skips the rest of the string: the COMMIT never runs, and the caller rolls back.
      const results = await many(client, `${statement}; COMMIT`);
      committed = true;
      return results[0] as pg.QueryResult;
    };
    let opened: pg.QueryResult[] = [];
    if (opening === undefined) await client.query('BEGIN');
    else opened = (await many(client, `BEGIN; ${opening}`)).slice(1);
    const result = await work(client, opened, commitWith);
    if (!committed) await client.query('COMMIT');
    return result;
  });
}

/**
 * `BEGIN; statements; COMMIT` in one round trip, for a transaction that needs no answer before it commits
 * (values written in, as for `opening`): the statements' results, one per statement. A failing statement skips
 * the rest, COMMIT included, and the transaction is rolled back.
 */
export async function commitInOneRoundTrip(pool: pg.Pool, statements: string): Promise<pg.QueryResult[]> {
  return inTransaction(pool, async (client) => (await many(client, `BEGIN; ${statements}; COMMIT`)).slice(1, -1));
}

/** pg answers a string of several statements with an array of results, one per statement. */
const many = async (client: pg.PoolClient, text: string) => (await client.query(text)) as unknown as pg.QueryResult[];

/**
 * A pooled connection for `body`, which opens and ends a transaction on it: ROLLBACK when `body` throws. A
 * connection that failed (lost, or unable to roll back) is destroyed instead of going back to the pool, so the
 * next transaction does not start on a broken or still-open one.
 */
async function inTransaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // While checked out, the pool no longer listens for the connection's errors; one arriving between two
  // statements (the server going away) would otherwise be an unhandled 'error' event.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on('error', onError);
  let broken = false;
  try {
    return await body(client);
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken || lost !== undefined);
  }
}
