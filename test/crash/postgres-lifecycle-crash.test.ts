import { expect, it } from 'vitest';
import type { StoredDelivery } from '../../src/store/store.js';
import { expectTicketsInOrder, incidentLifecycle, jiraLifecycleRules } from '../helpers/jira-lifecycle.js';
import { postWebhook } from '../helpers/post-webhook.js';
import type { ReceivedRequest } from '../helpers/start-http-receiver.js';
import { startJiraStandIn } from '../helpers/start-jira-stand-in.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';
import { serve, waitUntil, writeDaemonFiles } from './crash-checks.js';
import { useCrashCleanup } from './use-crash-cleanup.js';

const tempDir = useTempDirs();
const INCIDENTS = 50;
const UPDATES = 5;
const EVENTS = INCIDENTS * (UPDATES + 2);
/** Events acknowledged before the kill: a little over a third of them. */
const KILL_AFTER_ACKS = 130;
// A killed instance's claims are leased for the target's timeout + 60 s (src/delivery/delivery-engine.ts):
// its in-flight deliveries, and every later one with the same incident, are sent again after 65 s.
const DRAIN_MS = 150_000;

const sender = (request: ReceivedRequest) => String(request.headers['x-sender']);
const keyOf = (request: ReceivedRequest) => String(request.headers['idempotency-key']);
/** What a request asks for: the same URL and body twice is the same request sent again. */
const contentOf = (request: ReceivedRequest) => `${request.method} ${request.url} ${request.body.toString('utf8')}`;

describePostgres('PostgreSQL journal: an incident lifecycle on three instances, one killed with SIGKILL', () => {
  const { processes, cleanups } = useCrashCleanup();

  it('50 tickets with their comments in order, closed once; every request sent again carries its first Idempotency-Key', async () => {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    // Answers wait 50 ms, so the killed instance dies with a request the stand-in has acted on but not answered.
    const stand = await startJiraStandIn({ honourIdempotencyKey: true, delayMs: 50 });
    cleanups.push(() => stand.close());
    const dir = tempDir();
    const env = { MONITOR_SECRET: SOURCE_SECRET, DATABASE_URL: testDatabaseUrl };
    const store = `{ postgres: { url: "\${DATABASE_URL}", schema: ${journal.schema}, pool_size: 4 } }`;
    // One journal and target for all; each instance's target names it in a header.
    const configs = ['a', 'b', 'c'].map((name) =>
      writeDaemonFiles(dir, {
        name,
        rules: jiraLifecycleRules(stand.url, ['concurrency: 8', 'timeout: 5s', `headers: { X-Sender: ${name} }`]),
        store,
      }),
    );
    const [a, b, c] = await Promise.all(configs.map((config) => serve(config, env, processes)));
    if (a === undefined || b === undefined || c === undefined) throw new Error('three instances expected');

    let live = [a.url, b.url, c.url];
    let acked = 0;
    let sent = 0;
    const postingTo = new Map<string, number>();
    let killing: Promise<void> | undefined;
    let killedDuring: ReceivedRequest | undefined;
    // Out of the pool, then killed once no webhook is in flight to it and it has a request in flight at Jira.
    // Ingest goes on to the two others meanwhile, so the shared journal always has deliveries for it to take:
    // with the engines keeping up, a pause of ingest could leave it nothing to send.
    const killA = async () => {
      live = [b.url, c.url];
      await waitUntil(
        () => postingTo.get(a.url) ?? 0,
        (count) => count === 0,
        10_000,
        String,
        5,
      );
      const from = stand.requests.length;
      const inFlight = () => stand.requests.slice(from).find((r) => sender(r) === 'a');
      await waitUntil(
        inFlight,
        (r) => r !== undefined,
        20_000,
        () => `no request from a among ${stand.requests.length - from} since it left the pool`,
        5,
      );
      killedDuring = inFlight();
      a.cli.child.kill('SIGKILL');
    };
    // 8 connections, each posting one incident's events in order, every event to any live instance.
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < INCIDENTS) {
          for (const body of incidentLifecycle(next++, UPDATES)) {
            const url = live[sent++ % live.length] as string;
            postingTo.set(url, (postingTo.get(url) ?? 0) + 1);
            const answer = await postWebhook(url, body, { secret: SOURCE_SECRET });
            postingTo.set(url, (postingTo.get(url) ?? 1) - 1);
            expect(answer.status).toBe(200);
            if (++acked === KILL_AFTER_ACKS) killing = killA();
          }
        }
      }),
    );
    await killing;
    expect(await a.cli.exited).toBe('SIGKILL');
    expect(acked).toBe(EVENTS);

    const opened = await journal.open();
    cleanups.push(() => opened.close());
    const deliveries = await waitUntil(
      (): Promise<StoredDelivery[]> => opened.findDeliveries({ limit: 10_000 }),
      (rows) => rows.length === EVENTS && rows.every((d) => d.state === 'delivered'),
      DRAIN_MS,
      (rows) => `${rows.filter((d) => d.state !== 'delivered').length} of ${rows.length} not delivered`,
      1_000,
    );
    expect(new Set(deliveries.map((d) => d.correlationKey)).size).toBe(INCIDENTS);
    expectTicketsInOrder(stand, INCIDENTS, UPDATES);
    for (const name of ['a', 'b', 'c']) expect(stand.requests.some((r) => sender(r) === name)).toBe(true);

    // A request sent again (the same URL and body) carries the Idempotency-Key of its first sending, and one
    // key never names two different requests.
    const firstByContent = new Map<string, ReceivedRequest>();
    const contentByKey = new Map<string, string>();
    const repeated: ReceivedRequest[] = [];
    for (const request of stand.requests) {
      const content = contentOf(request);
      const first = firstByContent.get(content);
      if (first === undefined) firstByContent.set(content, request);
      else {
        repeated.push(request);
        expect({ content, key: keyOf(request) }).toEqual({ content, key: keyOf(first) });
      }
      expect(contentByKey.get(keyOf(request)) ?? content).toBe(content);
      contentByKey.set(keyOf(request), content);
    }
    const fromKilled = repeated.filter((r) => sender(firstByContent.get(contentOf(r)) as ReceivedRequest) === 'a');
    console.log(
      `lifecycle crash: ${repeated.length} request(s) repeated after the crash (${fromKilled.length} first sent ` +
        `by the killed instance), all with their first Idempotency-Key; the stand-in answered ` +
        `${stand.replayed.length} from its idempotency record; ${stand.requests.length} requests in all`,
    );
    // The request in flight when the instance died was sent again by another one, with the same key.
    if (killedDuring === undefined) throw new Error('no request was in flight at the kill');
    const again = repeated.filter((r) => contentOf(r) === contentOf(killedDuring as ReceivedRequest));
    expect(again.map((r) => [sender(r) === 'a', keyOf(r)])).toEqual([[false, keyOf(killedDuring)]]);
    expect(stand.replayed.length).toBe(repeated.length);
  }, 240_000);
});
