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

describe('throttles in a running daemon', () => {
  it('a storm of 1,000 events for 20 hosts in 10 s sends 20 and records 980 suppressed; the next after the window says how many', async () => {
    receiver = await startHttpReceiver();
    const clock = manualClock(Date.parse('2026-11-24T10:00:00Z'));
    const rules = `
targets:
  soc-slack:
    type: slack
    webhook_url: "${receiver.url}/services/T0/B0/x"
    throttle: { key: "{{ data.host }}", window: 10m }
routes:
  - { name: all, to: [soc-slack] }
`;
    const d = (daemon = await startTestDaemon(tempDir(), { rules, clock }));
    const post = async (n: number) => {
      const body = envelope('agent.offline', { host: `host-${n % 20}`, agent: { id: `agt_${n % 20}` }, n });
      const answer = await postWebhook(d.url, body, { secret: SOURCE_SECRET });
      expect(answer.status).toBe(200);
    };
    for (let tick = 0; tick < 10; tick += 1) {
      // 100 events a (controlled) second, 8 at a time.
      for (let start = 0; start < 100; start += 8) {
        await Promise.all(Array.from({ length: Math.min(8, 100 - start) }, (_, i) => post(tick * 100 + start + i)));
      }
      clock.advance(1_000);
    }
    // Slack targets are paced (1 a second by default) by the controlled clock: let it run while they go out.
    const drain = async (count: number) => {
      for (let i = 0; i < 200 && (receiver?.requests.length ?? 0) < count; i += 1) {
        clock.advance(1_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return receiver?.waitForRequests(count, 5_000);
    };
    await drain(20);
    const store = createSqliteStore({ path: d.dbPath });
    const deliveries = await store.findDeliveries({ limit: 10_000 }).finally(() => store.close());
    const count = (state: string) => deliveries.filter((x) => x.state === state).length;
    expect(deliveries).toHaveLength(1_000);
    expect(count('suppressed')).toBe(980);
    expect(deliveries.filter((x) => x.state === 'suppressed').every((x) => x.heldBy === 'target:soc-slack')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requests).toHaveLength(20);
    expect(count('pending') + count('delivered')).toBe(20);

    clock.advance(10 * 60_000);
    await post(1_000); // host-0 again, after its window: let through, and it tells what was held back
    const last = await drain(21);
    const text = JSON.stringify(JSON.parse(last?.[20]?.body.toString('utf8') ?? '{}'));
    expect(text).toContain('49 similar events were suppressed since the last message');
  }, 120_000);
});

describe('a route throttle over several targets', () => {
  it('counts each target apart: max 1 sends the first event to every target of the route', async () => {
    receiver = await startHttpReceiver();
    const rules = `
targets:
  tickets: { type: http, url: "${receiver.url}/tickets" }
  archive: { type: http, url: "${receiver.url}/archive" }
routes:
  - name: storm
    to: [tickets, archive]
    throttle: { key: "{{ data.host }}", window: 10m }
`;
    const token = 'throttle-daemon-admin-token-0123456789';
    const d = (daemon = await startTestDaemon(tempDir(), { rules, env: { SWITCHYARD_ADMIN_TOKEN: token } }));
    for (let n = 0; n < 3; n += 1) {
      const answer = await postWebhook(d.url, envelope('agent.offline', { host: 'db-1', n }), {
        secret: SOURCE_SECRET,
      });
      expect(answer.status).toBe(200);
    }
    const sent = await receiver.waitForRequests(2, 5_000);
    expect(sent.map((r) => r.url).sort()).toEqual(['/archive', '/tickets']);
    const store = createSqliteStore({ path: d.dbPath });
    const deliveries = await store.findDeliveries({ limit: 100 }).finally(() => store.close());
    expect(
      deliveries
        .filter((x) => x.state === 'suppressed')
        .map((x) => x.target)
        .sort(),
    ).toEqual(['archive', 'archive', 'tickets', 'tickets']);
    const metrics = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(metrics).toMatch(/^switchyard_deliveries_held_total\{state="suppressed"\} 4$/m);
    expect(metrics).toMatch(/^switchyard_deliveries_queued_total 2$/m);
  }, 30_000);
});

describe('a throttle with normalize_key', () => {
  it('throttles H1, "h1 " and h1 with a zero-width space as one host: one sent, two suppressed', async () => {
    receiver = await startHttpReceiver();
    const rules = `
targets:
  tickets:
    type: http
    url: "${receiver.url}/tickets"
    throttle: { key: "{{ data.host }}", window: 10m, normalize_key: true }
routes:
  - { name: all, to: [tickets] }
`;
    const d = (daemon = await startTestDaemon(tempDir(), { rules }));
    for (const host of ['H1', 'h1 ', 'h1\u200b', 'h2']) {
      const answer = await postWebhook(d.url, envelope('agent.offline', { host }), { secret: SOURCE_SECRET });
      expect(answer.status).toBe(200);
    }
    const sent = await receiver.waitForRequests(2, 5_000);
    const hosts = sent.map((r) => (JSON.parse(r.body.toString('utf8')) as { data: { host: string } }).data.host);
    expect(hosts.sort()).toEqual(['H1', 'h2']);
    const store = createSqliteStore({ path: d.dbPath });
    const deliveries = await store.findDeliveries({ limit: 100 }).finally(() => store.close());
    expect(deliveries.filter((x) => x.state === 'suppressed')).toHaveLength(2);
    expect(deliveries.filter((x) => x.state === 'suppressed').every((x) => x.heldBy === 'target:tickets')).toBe(true);
  }, 30_000);
});
