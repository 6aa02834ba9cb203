import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { describePostgres } from './describe-postgres.js';
import { T0, makeIngestItem } from './make-ingest-item.js';
import { tempPostgresJournal, type TempPostgresJournal } from './temp-postgres-journal.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
function track(store: Store): Store {
  cleanups.push(() => store.close());
  return store;
}
async function listen(onConnection: (socket: Socket) => void = () => {}): Promise<Server & { port: number }> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return Object.assign(server, { port: address.port });
}
const unavailable = { code: 'journal_unavailable', status: 503 };

// These need no PostgreSQL at all: they stand in for a database that is down or hung.
describe('PostgreSQL store when the database cannot be reached', () => {
  it('answers journal_unavailable at once on a closed port, naming no secret', async () => {
    const server = await listen();
    const { port } = server;
    await new Promise((resolve) => server.close(resolve));
    const store = track(createPostgresStore({ url: `postgres://switchyard:s3cret@127.0.0.1:${port}/journal` }));

    for (const call of [
      () => store.migrate(),
      () => store.ingest([makeIngestItem()]),
      () => store.counts(),
      () => store.claimDue({ target: 't', now: T0, limit: 1, leaseMs: 1000 }),
      () => store.ping(),
    ]) {
      const error: unknown = await call().catch((e: unknown) => e);
      expect(error).toMatchObject({ ...unavailable, message: expect.stringContaining('ECONNREFUSED') });
      expect(
        JSON.stringify({ message: (error as Error).message, where: (error as { where?: string }).where }),
      ).not.toContain('s3cret');
    }
  });

  it('gives up after the connection timeout on a server that accepts but never answers', async () => {
    const sockets: Socket[] = [];
    const server = await listen((socket) => sockets.push(socket));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    const store = track(
      createPostgresStore({ url: `postgres://switchyard@127.0.0.1:${server.port}/journal`, connectionTimeoutMs: 300 }),
    );

    const started = performance.now();
    await expect(store.ingest([makeIngestItem()])).rejects.toMatchObject(unavailable);
    // Bounded by the timeout rather than hanging (loose bound on purpose).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(sockets.length).toBeGreaterThan(0);
  });
});

describePostgres('PostgreSQL store when the database refuses work', () => {
  async function journal(): Promise<TempPostgresJournal> {
    const created = await tempPostgresJournal();
    cleanups.push(() => created.dispose());
    await track(await created.open()).migrate();
    return created;
  }
  const backends = (on: TempPostgresJournal, name: string) =>
    on.sql<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name]);

  it('answers journal_unavailable on a read-only server and writes nothing, while reads still work', async () => {
    const on = await journal();
    const store = track(on.openWith({ pool: { options: '-c default_transaction_read_only=on' } }));

    await expect(store.ingest([makeIngestItem()])).rejects.toMatchObject({
      ...unavailable,
      message: expect.stringContaining('read-only'),
    });
    await expect(store.claimDue({ target: 'soc-slack', now: T0, limit: 1, leaseMs: 1 })).rejects.toMatchObject(
      unavailable,
    );
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  async function lockEvents(on: TempPostgresJournal): Promise<{ unlock(): Promise<void> }> {
    const locker = await on.connect();
    cleanups.push(() => locker.end());
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    return { unlock: async () => void (await locker.query('ROLLBACK')) };
  }

  it('answers journal_unavailable when a statement times out behind a lock, then recovers', async () => {
    const on = await journal();
    const store = track(on.openWith({ statementTimeoutMs: 300 }));
    const lock = await lockEvents(on);
    const item = makeIngestItem();

    await expect(store.ingest([item])).rejects.toMatchObject({
      ...unavailable,
      message: expect.stringContaining('timed out'),
    });
    await lock.unlock();
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
    expect(await store.ingest([item])).toEqual([{ duplicate: false, eventId: item.event.id, deliveries: 2 }]);
  });

  it('recovers by itself when the server closes its connections, idle or mid-statement', async () => {
    const on = await journal();
    const name = `switchyard_test_${randomBytes(4).toString('hex')}`;
    const store = track(on.openWith({ pool: { application_name: name } }));
    const first = makeIngestItem();
    await store.ingest([first]);
    expect((await backends(on, name)).length).toBeGreaterThan(0);

    // Idle connections closed (a server restart, a failover): the next call opens new ones.
    await on.sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    // pg_terminate_backend only signals: wait until they are gone, as after a restart, or the next call can still
    // reach a backend on its way out (57P01), which failed this test on a loaded machine.
    for (let tries = 0; tries < 200 && (await backends(on, name)).length > 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });

    // A connection closed while its statement waits: that group fails as unavailable and is not stored.
    const lock = await lockEvents(on);
    const second = makeIngestItem();
    const pending = store.ingest([second]).catch((error: unknown) => error);
    for (let tries = 0; tries < 200; tries++) {
      const waiting = await on.sql(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
        [name],
      );
      if (waiting.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await on.sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    expect(await pending).toMatchObject(unavailable);
    await lock.unlock();
    expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });
    expect((await store.ingest([second]))[0]).toMatchObject({ duplicate: false });
  });
});
