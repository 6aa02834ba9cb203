import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { rawRequest } from '../helpers/raw-request.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';

// 64 KiB shared by bodies past their first 16 KiB: two bodies of 40 KiB fit (2 x 24 KiB), a third does not.
let daemon: TestDaemon;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchyard-budget-'));
  daemon = await startTestDaemon(dir, {
    config: 'max_body: 64kb\nmax_body_in_flight: 64kb\nmax_connections: 8\nbody_timeout: 5s\n',
  });
});
afterAll(async () => {
  await daemon.running.close();
  rmSync(dir, { recursive: true, force: true });
});

const WRONG = `sha256=${'0'.repeat(64)}`;
const head = (length: number, signature = WRONG): string =>
  `POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${signature}\r\nContent-Length: ${length}\r\n\r\n`;

/** A wrongly signed body of 65,000 bytes, of which only the first `sent` are sent: the daemon must hold them. */
async function holdBody(port: number, sent: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(head(65_000) + 'x'.repeat(sent));
  await new Promise((resolve) => setTimeout(resolve, 150));
  return socket;
}

describe('ingest: the bytes of bodies held before the signature check are bounded', () => {
  it('answers 503 ingest_busy with Retry-After past the budget, closes, stores nothing; a valid event still gets 200', async () => {
    const held = [await holdBody(daemon.running.port, 40 * 1024), await holdBody(daemon.running.port, 40 * 1024)];
    const third = await rawRequest(daemon.running.port, [head(65_000), 'x'.repeat(40 * 1024)], 3_000);
    expect(third.status).toBe(503);
    expect(third.text).toMatch(/retry-after: 5/i);
    expect(third.text).toContain('"code":"ingest_busy"');
    expect(third.closed).toBe(true);
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });

    // The shared part is still full, but a small event fits in its body's own first 16 KiB.
    const valid = envelope('incident.created', { incident_id: 'inc_budget', severity: 'high' });
    expect((await postWebhook(daemon.url, valid, { secret: SOURCE_SECRET })).status).toBe(200);
    expect(await daemon.counts()).toEqual({ events: 1, deliveries: 2 });
    for (const socket of held) socket.destroy();
  });

  it('gives the bytes back when a held body is dropped, so a large valid event fits again', async () => {
    const held = await holdBody(daemon.running.port, 60 * 1024);
    const big = envelope('agent.offline', { hostname: 'db-9', pad: 'p'.repeat(60 * 1024) });
    const during = await postWebhook(daemon.url, big, { secret: SOURCE_SECRET });
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('5');
    expect(during.body).toMatchObject({ error: { code: 'ingest_busy' } });
    expect(await daemon.counts()).toEqual({ events: 1, deliveries: 2 });
    held.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await postWebhook(daemon.url, big, { secret: SOURCE_SECRET })).status).toBe(200);
  });

  it('closes connections past max_connections', async () => {
    const sockets = await Promise.all(Array.from({ length: 8 }, () => holdBody(daemon.running.port, 10)));
    const refused = await rawRequest(daemon.running.port, [head(2) + '{}'], 2_000);
    expect(refused.status).toBeNull();
    expect(refused.closed).toBe(true);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const valid = envelope('incident.created', { incident_id: 'inc_after', severity: 'low' });
    expect((await postWebhook(daemon.url, valid, { secret: SOURCE_SECRET })).status).toBe(200);
  });
});
