import type pg from 'pg';

/** Statements that share a round trip with the transaction's BEGIN or its COMMIT (issue 11). */
export interface TransactionTrips<T> {
  /**
   * Statements without parameters (their values written into them: integers, or text through pg's
   * `escapeLiteral`), sent with the BEGIN in one round trip; `work` gets their results in order. Each runs
   * with a snapshot of its own (READ COMMITTED), so one after a lock sees what committed before the lock.
   */
  readonly opening?: readonly string[];
  /** A statement written from `work`'s result the same way, sent with the COMMIT in one round trip. */
  readonly closing?: (result: T) => string | undefined;
}

/**
 * Runs `work` in one transaction on a pooled connection: COMMIT when it resolves, ROLLBACK when it throws.
 * A connection that failed (lost, or unable to roll back) is destroyed instead of going back to the pool, so
 * the next transaction does not start on a broken or still-open one.
 * The simple query protocol takes several statements in one message, so the first and last statements can go
 * with the BEGIN and the COMMIT (`trips`): each round trip costs the daemon a socket write and a wake-up of
 * the server process, and a transaction holding a lock holds it a round trip less. When a statement of such a
 * message fails, the ones after it do not run: the COMMIT is never reached and the transaction rolls back.
 */
export async function withPostgresTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, opened: readonly pg.QueryResult[]) => Promise<T>,
  trips: TransactionTrips<T> = {},
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
    const opening = trips.opening ?? [];
    let opened: readonly pg.QueryResult[] = [];
    if (opening.length === 0) await client.query('BEGIN');
    else opened = ((await client.query(['BEGIN', ...opening].join('; '))) as unknown as pg.QueryResult[]).slice(1);
    const result = await work(client, opened);
    const closing = trips.closing?.(result);
    await client.query(closing === undefined ? 'COMMIT' : `${closing}; COMMIT`);
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
