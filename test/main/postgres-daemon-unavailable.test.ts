import { COMMITS_BACK, COMMITS_FAILING } from '../../src/ingest/create-ingest-commit.js';
import { postgresMigrations } from '../../src/store/postgres/migrations/postgres-migrations.js';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../delivery/engine/engine-harness.js';
import { forwardAllRules } from '../helpers/forward-all-rules.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { POSTGRES_DAEMON_ADMIN_TOKEN, startPostgresDaemon } from '../helpers/start-postgres-daemon.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';

const tempDir = useTempDirs();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PASSWORD = 'db-pass-placeholder-0123';
const rulesFor = (receiver: HttpReceiver) => forwardAllRules(`${receiver.url}/api/events`);

/** A loopback port where nothing listens (for now). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Opens `port` as a TCP relay to the test database: the database "comes back". */
async function relayToDatabase(port: number): Promise<Server> {
  const target = new URL(testDatabaseUrl);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return server;
}

async function startReceiver(): Promise<HttpReceiver> {
  const receiver = await startHttpReceiver();
  cleanups.push(() => receiver.close());
  return receiver;
}

// The daemon starts when the database is down (an orchestrator restarting it in a loop gains nothing), reports
// not ready, and answers every webhook 503 journal_unavailable, never 200.
describe('a daemon whose PostgreSQL cannot be reached', () => {
  it('starts, answers ingest 503 journal_unavailable and /readyz 503 with the journal check failing', async () => {
    const receiver = await startReceiver();
    const port = await closedPort();
    const daemon = await startPostgresDaemon(tempDir(), {
      databaseUrl: `postgres://switchyard:${PASSWORD}@127.0.0.1:${port}/switchyard`,
      schema: 'switchyard',
      rules: rulesFor(receiver),
    });
    cleanups.push(() => daemon.running.close());

    for (let n = 0; n < 3; n++) {
      const answer = await postWebhook(daemon.url, envelope('agent.offline', { hostname: `h-${n}` }), {
        secret: SOURCE_SECRET,
      });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ error: { code: 'journal_unavailable' } });
      expect(answer.headers.get('retry-after')).toBe('5');
    }
    const ready = await fetch(`${daemon.url}/readyz`, {
      headers: { authorization: `Bearer ${POSTGRES_DAEMON_ADMIN_TOKEN}` },
    });
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      ready: false,
      checks: {
        listening: { ok: true },
        journal: { ok: false, error: expect.stringContaining('ECONNREFUSED') },
        ingest: { ok: false },
      },
    });
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'the journal cannot be reached: starting not ready, ingest answers 503 until it can',
      }),
    );
    // The outage is one line, naming the database without its password; the refused webhooks are not a line each.
    const outage = daemon.logs().filter((line) => line.message === COMMITS_FAILING);
    expect(outage).toEqual([
      expect.objectContaining({
        level: 'error',
        journal: `postgres://127.0.0.1:${port}/switchyard (schema switchyard)`,
      }),
    ]);
    expect(outage[0]).not.toHaveProperty('free_bytes');
    expect(daemon.logs().filter((line) => line.message === 'webhook rejected')).toEqual([]);
    expect(daemon.rawLogs()).not.toContain(PASSWORD);
    expect(receiver.requests).toHaveLength(0);
  });
});

describePostgres('a daemon whose PostgreSQL comes back', () => {
  it('migrates, accepts and delivers once the database answers, without a restart', async () => {
    const receiver = await startReceiver();
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const port = await closedPort();
    const url = new URL(testDatabaseUrl);
    url.host = `127.0.0.1:${port}`;
    const daemon = await startPostgresDaemon(tempDir(), {
      databaseUrl: url.toString(),
      schema: journal.schema,
      rules: rulesFor(receiver),
    });
    cleanups.push(() => daemon.running.close());
    const event = (n: number) => envelope('agent.offline', { hostname: `h-${n}` });
    expect((await postWebhook(daemon.url, event(1), { secret: SOURCE_SECRET })).status).toBe(503);

    await relayToDatabase(port);
    const answer = await postWebhook(daemon.url, event(2), { secret: SOURCE_SECRET });
    expect(answer).toMatchObject({ status: 200, body: { deliveries: 1 } });
    expect(daemon.logs().filter((line) => line.message === COMMITS_BACK)).toEqual([
      expect.objectContaining({ level: 'info', by: 'a commit', refused: 1 }),
    ]);
    const [request] = await receiver.waitForRequests(1);
    expect(JSON.parse(request?.body.toString() ?? '{}')).toMatchObject({ data: { hostname: 'h-2' } });
    await waitFor(
      async () => (await fetch(`${daemon.url}/readyz`)).status,
      (status) => status === 200,
    );
    expect(await journal.sql('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
      postgresMigrations.map(({ version }) => ({ version })),
    );
  });
});
