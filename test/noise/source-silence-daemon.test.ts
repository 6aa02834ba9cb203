import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
let receiver: HttpReceiver | undefined;
afterEach(async () => {
  await daemon?.running.close();
  await receiver?.close();
  daemon = undefined;
  receiver = undefined;
});

const kinds = (r: HttpReceiver) =>
  r.requests.map((q) => (JSON.parse(q.body.toString('utf8')) as { event: string }).event);

describe('a source that goes quiet', () => {
  it('raises switchyard.source_silent once, counting rejected requests, then source_recovered; routed by the rules', async () => {
    const r = (receiver = await startHttpReceiver());
    const clock = manualClock(Date.parse('2026-11-24T10:00:00Z'));
    const rules = `
targets:
  pager: { type: http, url: "${r.url}/pager" }
  tickets: { type: http, url: "${r.url}/tickets" }
routes:
  - { name: switchyard-itself, match: { event: "switchyard.*" }, to: [pager], stop: true }
  - { name: all, to: [tickets] }
`;
    const d = (daemon = await startTestDaemon(tempDir(), {
      rules,
      clock,
      expectEventsWithin: '15m',
      sourceWatchMs: 20,
    }));
    const post = async (n: number, secret = SOURCE_SECRET) =>
      (await postWebhook(d.url, envelope('incident.created', { incident_id: `inc_${n}` }), { secret })).status;
    const wait = () => new Promise((resolve) => setTimeout(resolve, 500));

    expect(await post(1)).toBe(200);
    await r.waitForRequests(1);
    clock.advance(14 * 60_000);
    await wait();
    expect(kinds(r)).toEqual(['incident.created']); // inside the window: quiet is fine
    expect(await post(2, 'a-rotated-secret-nobody-told-us')).toBe(401);
    expect(await post(3, 'a-rotated-secret-nobody-told-us')).toBe(401);
    clock.advance(2 * 60_000);
    await r.waitForRequests(2, 10_000);
    await wait();
    expect(kinds(r)).toEqual(['incident.created', 'switchyard.source_silent']); // once, not at every check
    const silent = JSON.parse(r.requests[1]?.body.toString('utf8') ?? '{}') as { data: Record<string, unknown> };
    expect(r.requests[1]?.url).toBe('/pager');
    expect(silent.data).toMatchObject({
      source: 'monitor',
      rejected_requests: 2,
      expected_within: '15m',
      last_event_at: '2026-11-24T10:00:00.000Z',
    });
    expect(String(silent.data.title)).toContain('2 requests failed signature verification');

    expect(await post(4)).toBe(200);
    await r.waitForRequests(4, 10_000);
    expect(kinds(r).slice(2).sort()).toEqual(['incident.created', 'switchyard.source_recovered']);
    const store = createSqliteStore({ path: d.dbPath });
    const raised = await store.findEvents({ source: 'switchyard' }).finally(() => store.close());
    // Both raised at the same instant of the controlled clock: their ids do not order them.
    expect(raised.map((e) => e.kind).sort()).toEqual(['switchyard.source_recovered', 'switchyard.source_silent']);
  }, 60_000);
});
