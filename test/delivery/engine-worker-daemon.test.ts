import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from './engine/engine-harness.js';

const tempDir = useTempDirs();

const rulesFor = (receiver: HttpReceiver, path: string) => `
targets:
  tickets:
    type: http
    url: "${receiver.url}${path}"
routes:
  - name: everything
    to: [tickets]
`;

const event = (n: number) =>
  JSON.stringify({
    event: 'incident.created',
    timestamp: '2026-11-22T10:00:00Z',
    data: { incident_id: `inc_${n}`, severity: 'high', title: `Incident ${n}` },
  });

// Issue 11: `delivery: { worker_thread: true }` runs the same engine in a worker thread with its own connection.
describe('the delivery engine in a worker thread (delivery.worker_thread)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('delivers what ingest committed, follows a rules reload, and stops cleanly', async () => {
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const daemon = await startTestDaemon(tempDir(), {
      rules: rulesFor(receiver, '/first'),
      config: 'delivery: { worker_thread: true }',
    });
    let open = true;
    cleanups.push(async () => open && (await daemon.running.close()));

    for (let n = 1; n <= 20; n += 1) {
      expect((await postWebhook(daemon.url, event(n), { secret: SOURCE_SECRET })).status).toBe(200);
    }
    const first = await receiver.waitForRequests(20);
    expect(first.every((request) => request.url === '/first')).toBe(true);

    writeFileSync(daemon.rulesPath, rulesFor(receiver, '/second'));
    expect(daemon.running.reloadRules()).toBe(true);
    // The worker watches the file too; either way the next delivery goes to the new URL.
    await waitFor(
      async () => {
        await postWebhook(daemon.url, event(Math.random() * 1e9), { secret: SOURCE_SECRET });
        return receiver.requests.at(-1)?.url;
      },
      (url) => url === '/second',
      10_000,
    );

    open = false;
    await daemon.running.close();
    const rows = await daemon.deliveries();
    expect(rows.length).toBeGreaterThan(20);
    // Stopped cleanly: every request the receiver answered is recorded; what was not sent yet is still pending.
    expect(rows.filter((row) => row.state === 'delivered')).toHaveLength(receiver.requests.length);
    expect(rows.every((row) => row.state === 'delivered' || row.state === 'pending')).toBe(true);
  });
  it("counts the worker's attempts on the daemon's /metrics", async () => {
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const token = 'metrics-token-0123456789abcdef';
    const daemon = await startTestDaemon(tempDir(), {
      rules: rulesFor(receiver, '/tickets'),
      config: 'delivery: { worker_thread: true }',
      env: { SWITCHYARD_ADMIN_TOKEN: token },
    });
    cleanups.push(() => daemon.running.close());
    for (let n = 1; n <= 5; n += 1) {
      expect((await postWebhook(daemon.url, event(n), { secret: SOURCE_SECRET })).status).toBe(200);
    }
    await receiver.waitForRequests(5);
    // The worker reports its counts every half second.
    const text = await waitFor(
      async () => {
        const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        return response.text();
      },
      (scraped) => scraped.includes('switchyard_delivery_attempts_total{target="tickets",outcome="delivered"} 5'),
      5_000,
    );
    expect(text).toContain('switchyard_delivery_attempt_duration_seconds_count{target="tickets"} 5');
  });
});
