import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
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

describe('muted_during in a running daemon', () => {
  it('records deliveries muted during the window (never sent) and sends them outside it, at the receive time', async () => {
    const r = (receiver = await startHttpReceiver());
    const clock = manualClock(Date.parse('2026-11-28T21:59:00Z')); // Saturday 22:59 in Berlin
    const rules = `
time_intervals:
  - name: maintenance-window
    time_intervals:
      - weekdays: [saturday]
        times: [{ start_time: '23:00', end_time: '24:00' }]
        location: Europe/Berlin
targets:
  pager: { type: http, url: "${r.url}/pager" }
routes:
  - { name: agents, match: { event: "agent.*" }, muted_during: [maintenance-window], to: [pager] }
`;
    const token = 'muted-daemon-admin-token-0123456789';
    const d = (daemon = await startTestDaemon(tempDir(), { rules, clock, env: { SWITCHYARD_ADMIN_TOKEN: token } }));
    const post = async (n: number) => {
      const answer = await postWebhook(d.url, envelope('agent.offline', { host: `db-${n}` }), {
        secret: SOURCE_SECRET,
      });
      expect(answer.status).toBe(200);
      return answer.body.id as string;
    };
    const before = await post(1);
    await r.waitForRequests(1);
    clock.advance(60_000); // 23:00 Berlin: the window opens
    const during = await post(2);
    clock.advance(60 * 60_000); // Sunday 00:00: closed
    const after = await post(3);
    await r.waitForRequests(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.requests).toHaveLength(2);
    const states = Object.fromEntries((await d.deliveries()).map((x) => [x.eventId, [x.state, x.heldBy]]));
    expect(states[before]).toEqual(['delivered', null]);
    expect(states[during]).toEqual(['muted', 'maintenance-window']);
    expect(states[after]).toEqual(['delivered', null]);
    const metrics = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(metrics).toMatch(/^switchyard_deliveries_held_total\{state="muted"\} 1$/m);
    expect(metrics).toMatch(/^switchyard_deliveries_queued_total 2$/m);
  }, 30_000);
});
