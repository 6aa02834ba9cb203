import type pg from 'pg';

/**
 * Runs `work` in one transaction on a pooled connection: COMMIT when it resolves, ROLLBACK when it throws.
 * A connection that failed (lost, or unable to roll back) is destroyed instead of going back to the pool, so
 * the next transaction does not start on a broken or still-open one.
 * `opening`, a statement without parameters (its values written into it, numbers only), goes with the BEGIN
 * in one round trip (the simple query protocol takes several statements); `work` then gets its result. Each
 * round trip costs the daemon a socket write and a wake-up of the server process (issue 11).
 */
export async function withPostgresTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, opened: pg.QueryResult | undefined) => Promise<T>,
  opening?: string,
): Promise<T> {
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
    let opened: pg.QueryResult | undefined;
    if (opening === undefined) await client.query('BEGIN');
    else opened = ((await client.query(`BEGIN; ${opening}`)) as unknown as pg.QueryResult[])[1];
    const result = await work(client, opened);
    await client.query('COMMIT');
    return result;
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
