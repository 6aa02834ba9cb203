import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/admin/api/new-api-key.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver, type ScriptedAnswer } from '../helpers/start-http-receiver.js';
import { judgePagerdutyEvent, receivedEvents, startPagerdutyStandIn } from '../helpers/start-pagerduty-stand-in.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from './engine/engine-harness.js';

const tempDir = useTempDirs();
const ROUTING_KEY = 'c0ffee5ecre7c0ffee5ecre7c0ffee5e';

const rulesFor = (receiver: HttpReceiver, retry = '') => `
targets:
  pager:
    type: pagerduty
    routing_key: "\${PAGERDUTY_ROUTING_KEY}"
    base_url: "${receiver.url}"
    ${retry}
routes:
  - { name: page, to: [pager] }
`;

describe('PagerDuty end to end (daemon, journal, Events API stand-in)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function start(receiver: HttpReceiver, options: { retry?: string; config?: string } = {}): Promise<TestDaemon> {
    cleanups.push(() => receiver.close());
    const daemon = await startTestDaemon(tempDir(), {
      rules: rulesFor(receiver, options.retry),
      env: { PAGERDUTY_ROUTING_KEY: ROUTING_KEY },
      random: () => 0,
      ...(options.config === undefined ? {} : { config: options.config }),
    });
    cleanups.push(() => daemon.running.close());
    return daemon;
  }
  /** Posts one event and waits until the stand-in has seen `requests` requests in all. */
  async function post(daemon: TestDaemon, receiver: HttpReceiver, body: string, requests: number): Promise<string> {
    const answer = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    expect(answer.status).toBe(200);
    await receiver.waitForRequests(requests);
    return String(answer.body.id);
  }

  it('an incident triggers, updates and resolves one alert; another incident gets its own', async () => {
    const pagerduty = await startPagerdutyStandIn();
    const daemon = await start(pagerduty);
    const incident = (kind: string, id: string, data: Record<string, unknown> = {}) =>
      envelope(kind, { incident_id: id, ...data });

    await post(
      daemon,
      pagerduty,
      incident('incident.created', 'inc_1', { severity: 'critical', title: 'Ransomware' }),
      1,
    );
    await post(daemon, pagerduty, incident('incident.created', 'inc_2', { severity: 'medium', title: 'Phishing' }), 2);
    await post(daemon, pagerduty, incident('incident.updated', 'inc_1', { severity: 'high', title: 'Contained' }), 3);
    await post(daemon, pagerduty, incident('incident.resolved', 'inc_1'), 4);

    const sent = receivedEvents(pagerduty).map((event) => [event.event_action, event.dedup_key]);
    expect(sent).toEqual([
      ['trigger', 'incident:inc_1'],
      ['trigger', 'incident:inc_2'],
      ['trigger', 'incident:inc_1'],
      ['resolve', 'incident:inc_1'],
    ]);
    expect(receivedEvents(pagerduty)[0]).toMatchObject({
      routing_key: ROUTING_KEY,
      payload: { summary: 'Ransomware', severity: 'critical', class: 'incident.created' },
    });
    const delivered = await waitFor(
      () => daemon.deliveries(),
      (rows) => rows.length === 4 && rows.every((row) => row.state === 'delivered'),
    );
    expect(delivered).toHaveLength(4);
    const db = new Database(daemon.dbPath, { readonly: true });
    cleanups.push(async () => db.close());
    const details = db.prepare('SELECT detail FROM attempts ORDER BY delivery_id').pluck().all();
    expect(details).toEqual(expect.arrayContaining(['Event processed; dedup_key incident:inc_2']));
  }, 30_000);

  it('never shows the routing key: not in attempt records, the admin API or the logs, even when echoed', async () => {
    // A hostile or buggy receiver that quotes the key back in every answer, in each way an API might.
    const echo = `routing_key ${ROUTING_KEY} (${JSON.stringify({ routing_key: ROUTING_KEY })})`;
    const invalid: ScriptedAnswer = {
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors: [echo] }),
    };
    const failing: ScriptedAnswer = { status: 500, body: `internal error for ${echo}` };
    const receiver = await startHttpReceiver({
      answers: [invalid, failing, failing],
      judge: (request) => {
        const answer = judgePagerdutyEvent(request.method, request.url, request.body);
        const body = JSON.parse(String(answer.body)) as Record<string, unknown>;
        return { ...answer, body: JSON.stringify({ ...body, message: `Event processed for ${echo}` }) };
      },
    });
    const reader = newApiKey();
    const daemon = await start(receiver, {
      retry: 'retry: { max_attempts: 2, initial_delay: 10ms, max_delay: 10ms }',
      config: `admin:\n  listen: { port: 0 }\n  keys:\n    - { name: dashboard, hash: "${reader.hash}", scopes: [read] }`,
    });

    const refused = await post(daemon, receiver, envelope('incident.created', { incident_id: 'inc_1' }), 1);
    const failed = await post(daemon, receiver, envelope('threat.detected', { host: 'h' }), 3);
    const accepted = await post(daemon, receiver, envelope('incident.created', { incident_id: 'inc_2' }), 4);
    const rows = await waitFor(
      () => daemon.deliveries(),
      (list) => list.length === 3 && list.every((row) => row.state !== 'pending'),
      10_000,
    );
    expect(rows.map((row) => row.state).sort()).toEqual(['dead', 'dead', 'delivered']);

    const api = `http://127.0.0.1:${daemon.running.adminPort}/api/v1`;
    const read = async (route: string) =>
      (await fetch(`${api}${route}`, { headers: { authorization: `Bearer ${reader.key}` } })).text();
    const answers = [
      ...(await Promise.all(rows.map((row) => read(`/deliveries/${row.id}`)))),
      ...(await Promise.all([refused, failed, accepted].map((id) => read(`/events/${id}`)))),
      await read('/deliveries'),
      await read('/dead-letters'),
      await read('/rules'),
      await read('/targets'),
    ].join('\n');
    const db = new Database(daemon.dbPath, { readonly: true });
    cleanups.push(async () => db.close());
    const stored = JSON.stringify([
      db.prepare('SELECT last_error FROM deliveries').all(),
      db.prepare('SELECT detail FROM attempts').all(),
    ]);

    // The answers did reach the records (masked), so the checks below look at text that held the key.
    expect(stored).toContain('Event object is invalid: routing_key [redacted]');
    expect(stored).toContain('Event processed for routing_key [redacted]');
    expect(answers).toContain('internal error for routing_key [redacted]');
    expect(answers).toContain('"type":"pagerduty"');
    expect(daemon.rawLogs()).toContain('delivery dead-lettered');
    expect(stored).not.toContain(ROUTING_KEY);
    expect(answers).not.toContain(ROUTING_KEY);
    expect(daemon.rawLogs()).not.toContain(ROUTING_KEY);
  }, 30_000);
});
