import { afterEach, expect, it } from 'vitest';
import type { StoredDelivery } from '../../src/store/store.js';
import { waitFor } from '../delivery/engine/engine-harness.js';
import { forwardAllRules } from '../helpers/forward-all-rules.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { startPostgresDaemon, type PostgresDaemon } from '../helpers/start-postgres-daemon.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl, type TempPostgresJournal } from '../store/temp-postgres-journal.js';

const tempDir = useTempDirs();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const rulesFor = (receiver: HttpReceiver) => forwardAllRules(`${receiver.url}/api/events`);

async function setup(): Promise<{ receiver: HttpReceiver; journal: TempPostgresJournal; dir: string }> {
  const receiver = await startHttpReceiver();
  cleanups.push(() => receiver.close());
  // Not migrated here: the daemons do that at start.
  const journal = await tempPostgresJournal();
  cleanups.push(() => journal.dispose());
  return { receiver, journal, dir: tempDir() };
}

async function daemonOn(
  dir: string,
  journal: TempPostgresJournal,
  receiver: HttpReceiver,
  name?: string,
): Promise<PostgresDaemon> {
  const daemon = await startPostgresDaemon(dir, {
    databaseUrl: testDatabaseUrl,
    schema: journal.schema,
    rules: rulesFor(receiver),
    ...(name === undefined ? {} : { name }),
  });
  cleanups.push(() => daemon.running.close());
  return daemon;
}

async function journalDeliveries(journal: TempPostgresJournal): Promise<StoredDelivery[]> {
  const store = journal.openWith({});
  try {
    return await store.findDeliveries({ limit: 1000 });
  } finally {
    await store.close();
  }
}

describePostgres('a daemon on PostgreSQL', () => {
  it('journals a signed webhook, answers 200 and delivers it; /readyz reports the journal', async () => {
    const { receiver, journal, dir } = await setup();
    const daemon = await daemonOn(dir, journal, receiver);

    const answer = await postWebhook(daemon.url, envelope('incident.created', { severity: 'high' }), {
      secret: SOURCE_SECRET,
    });
    expect(answer).toMatchObject({ status: 200, body: { deliveries: 1 } });
    const [request] = await receiver.waitForRequests(1);
    const delivered = await waitFor(
      () => journalDeliveries(journal),
      (rows) => rows[0]?.state === 'delivered',
    );
    expect(delivered).toMatchObject([{ eventId: answer.body.id, target: 'tickets', attempts: 1 }]);
    expect(request?.headers['idempotency-key']).toBe(delivered[0]?.id);

    const ready = await fetch(`${daemon.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { journal: { ok: true }, ingest: { ok: true } } });
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({
        message: 'switchyard listening',
        journal: expect.stringMatching(new RegExp(`^postgres://.* \\(schema ${journal.schema}\\)$`)),
      }),
    );
  });

  it('shares one journal between two instances: 40 events across both, each delivered exactly once', async () => {
    const { receiver, journal, dir } = await setup();
    // Started together, as a deployment rolls out: both migrate at once, one of them does the work.
    const [a, b] = await Promise.all([daemonOn(dir, journal, receiver, 'a'), daemonOn(dir, journal, receiver, 'b')]);

    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        postWebhook(n % 2 === 0 ? a.url : b.url, envelope('agent.offline', { hostname: `host-${n}` }), {
          secret: SOURCE_SECRET,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    const rows = await waitFor(
      () => journalDeliveries(journal),
      (found) => found.length === 40 && found.every((row) => row.state === 'delivered'),
      10_000,
    );

    // Every delivery is recorded as delivered, so nothing can be sent again: the count is final.
    const keys = receiver.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(40);
    expect(new Set(keys)).toEqual(new Set(rows.map((row) => row.id)));
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
    // Neither instance released the other's claims at start (a shared journal's claims belong to live instances).
    for (const daemon of [a, b]) {
      expect(daemon.logs().map((line) => line.message)).not.toContain(
        'deliveries left in flight by a previous run are due again',
      );
    }
  });
});
