import type pg from 'pg';

/**
 * Runs `work` in one transaction on a pooled connection: COMMIT when it resolves, ROLLBACK when it throws.
 * A connection that failed (lost, or unable to roll back) is destroyed instead of going back to the pool, so
 * the next transaction does not start on a broken or still-open one.
 */
export async function withPostgresTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
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
    await client.query('BEGIN');
    const result = await work(client);
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
