import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook, sign } from '../helpers/post-webhook.js';
import { vector } from '../helpers/signature-vectors.js';
import {
  NEXT_SECRET,
  SLACK_URL,
  SOURCE_SECRET,
  startTestDaemon,
  type TestDaemon,
} from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

async function storedEvent(d: TestDaemon, id: string) {
  const store = createSqliteStore({ path: d.dbPath });
  try {
    return { event: await store.getEvent(id), deliveries: await store.listDeliveries(id) };
  } finally {
    await store.close();
  }
}

describe('ingest: accepted events', () => {
  it('accepts an event signed as openssl signs it, journals the exact bytes and its deliveries', async () => {
    daemon = await startTestDaemon(tempDir());
    const v = vector('incident-critical.json');
    const answer = await postWebhook(daemon.url, v.body, { signature: v.header });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ duplicate: false, deliveries: 2 });
    const id = answer.body.id as string;
    expect(id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    const { event, deliveries } = await storedEvent(daemon, id);
    expect(event?.body.equals(v.body)).toBe(true);
    expect(event).toMatchObject({
      source: 'monitor',
      kind: 'incident.created',
      severity: 'critical',
      matchedRoutes: ['serious-incidents'],
    });
    expect(event?.rulesVersion).toMatch(/^[0-9a-f]{12}$/);
    expect(deliveries.map((d) => [d.target, d.state, d.attempts]).sort()).toEqual([
      ['oncall-mail', 'pending', 0],
      ['soc-slack', 'pending', 0],
    ]);
  });

  it('stores the title from data.title, else from a top-level title the envelope does not keep', async () => {
    daemon = await startTestDaemon(tempDir());
    const send = async (body: string) => {
      const answer = await postWebhook(daemon?.url ?? '', body, { secret: SOURCE_SECRET });
      expect(answer.status).toBe(200);
      return answer.body.id as string;
    };
    const inData = await send(envelope('incident.created', { severity: 'high', title: 'In data' }));
    const topLevel = await send(
      JSON.stringify({
        event: 'incident.created',
        title: 'At the top',
        timestamp: new Date().toISOString(),
        data: { rule: { title: 'not this' } },
      }),
    );
    const store = createSqliteStore({ path: daemon.dbPath });
    try {
      const titles = new Map((await store.findEvents({ limit: 10 })).map((e) => [e.id, e.title]));
      expect([titles.get(inData), titles.get(topLevel)]).toEqual(['In data', 'At the top']);
    } finally {
      await store.close();
    }
  });

  it('accepts a body whose whitespace would not survive re-serialisation', async () => {
    daemon = await startTestDaemon(tempDir());
    const v = vector('agent-offline-spaced.json');
    const answer = await postWebhook(daemon.url, v.body, { signature: v.header });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ duplicate: false, deliveries: 2 });
  });

  it('accepts a content type with parameters, in any case', async () => {
    daemon = await startTestDaemon(tempDir());
    const body = envelope('incident.created', { incident_id: 'inc_ct', severity: 'high' });
    const answer = await postWebhook(daemon.url, body, {
      contentType: 'Application/JSON; charset=utf-8',
      secret: SOURCE_SECRET,
    });
    expect(answer.status).toBe(200);
  });

  it('accepts any active secret during rotation', async () => {
    daemon = await startTestDaemon(tempDir());
    const body = envelope('incident.created', { incident_id: 'inc_9', severity: 'high' });
    expect((await postWebhook(daemon.url, body, { secret: NEXT_SECRET })).status).toBe(200);
  });

  it('answers an identical re-delivery as a duplicate with no new deliveries', async () => {
    daemon = await startTestDaemon(tempDir());
    const body = envelope('incident.created', { incident_id: 'inc_1', severity: 'critical' });
    const first = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    const again = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id: first.body.id, duplicate: true, deliveries: 0 });
    expect(await daemon.counts()).toEqual({ events: 1, deliveries: 2 });
  });

  it('takes an identical body again once the dedupe window has passed', async () => {
    const clock = manualClock();
    daemon = await startTestDaemon(tempDir(), { config: 'dedupe_window: 1h', clock });
    const body = envelope('agent.online', { hostname: 'db-1' });
    await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    clock.advance(3_600_001);
    const later = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
    expect(later.body).toMatchObject({ duplicate: false, deliveries: 2 });
    expect((await daemon.counts()).events).toBe(2);
  });

  it('refuses an event older than max_event_age (400, nothing stored) and takes a fresh one', async () => {
    const clock = manualClock(Date.parse('2026-11-22T12:00:00Z'));
    daemon = await startTestDaemon(tempDir(), { maxEventAge: '1h', clock });
    const old = envelope('incident.created', { incident_id: 'inc_old', severity: 'high' }, '2026-11-22T10:59:59Z');
    const answer = await postWebhook(daemon.url, old, { secret: SOURCE_SECRET });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'event_too_old', message: expect.any(String) } });
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
    const fresh = envelope('incident.created', { incident_id: 'inc_new', severity: 'high' }, '2026-11-22T11:30:00Z');
    expect((await postWebhook(daemon.url, fresh, { secret: SOURCE_SECRET })).status).toBe(200);
  });

  it('drops noise on purpose (to: [] with stop) but still journals the event', async () => {
    daemon = await startTestDaemon(tempDir());
    const answer = await postWebhook(daemon.url, envelope('agent.offline', { hostname: 'test-runner-3' }), {
      secret: SOURCE_SECRET,
    });
    expect(answer.body).toMatchObject({ duplicate: false, deliveries: 0 });
    expect(await daemon.counts()).toEqual({ events: 1, deliveries: 0 });
  });

  it('routes unknown event kinds (to the fallback here) with a warning', async () => {
    daemon = await startTestDaemon(tempDir());
    const answer = await postWebhook(
      daemon.url,
      envelope('malware.quarantined', { file: 'x.exe', extra: { nested: true } }),
      { secret: SOURCE_SECRET },
    );
    expect(answer.body).toMatchObject({ duplicate: false, deliveries: 1 });
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'unknown event kind, routed as usual',
        kind: 'malware.quarantined',
      }),
    );
  });

  it('routes an unknown severity as the highest level, counting and logging it', async () => {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: 'admin-token-0123456789' } });
    const answer = await postWebhook(
      daemon.url,
      envelope('incident.created', { incident_id: 'inc_5', severity: 'SEV1' }),
      { secret: SOURCE_SECRET },
    );
    expect(answer.body).toMatchObject({ deliveries: 2 });
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({ level: 'warn', severity: 'SEV1', treated_as: 'critical' }),
    );
    const metrics = await (
      await fetch(`${daemon.url}/metrics`, { headers: { authorization: 'Bearer admin-token-0123456789' } })
    ).text();
    expect(metrics).toContain('switchyard_unknown_severity_total 1');
  });

  it('logs one line per event, never the secret, the signature or a target URL', async () => {
    // The per-event line is at debug (issue 11, docs/operations.md).
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_LOG_LEVEL: 'debug' } });
    const body = envelope('incident.created', { incident_id: 'inc_7', severity: 'high', title: `leak ${SLACK_URL}` });
    const signature = sign(body, SOURCE_SECRET);
    await postWebhook(daemon.url, body, { signature });
    await postWebhook(daemon.url, body, { signature: sign(body, 'wrong-secret-0123456789') });
    const received = daemon.logs().filter((l) => l.message === 'event received');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      source: 'monitor',
      kind: 'incident.created',
      severity: 'high',
      routes: ['serious-incidents'],
      deliveries: 2,
    });
    const raw = daemon.rawLogs();
    for (const secret of [SOURCE_SECRET, NEXT_SECRET, signature.slice(7), SLACK_URL]) expect(raw).not.toContain(secret);
  });

  it('answers each of many concurrent distinct events after its group commits', async () => {
    daemon = await startTestDaemon(tempDir());
    const d = daemon;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        postWebhook(
          d.url,
          envelope('incident.created', { incident_id: `inc_${i}`, severity: i % 2 ? 'low' : 'high' }),
          { secret: SOURCE_SECRET },
        ),
      ),
    );
    expect(answers.every((a) => a.status === 200 && a.body.duplicate === false)).toBe(true);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(200);
    // high: slack + mail; low: no route matches, so the fallback (tickets)
    expect(await daemon.counts()).toEqual({ events: 200, deliveries: 100 * 2 + 100 * 1 });
  });
});
