import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';

// Small timeouts, so that Node's default 30 s connection sweep would show as a wait far past them.
let daemon: TestDaemon;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchyard-slow-'));
  daemon = await startTestDaemon(dir, {
    config:
      'header_timeout: 1s\nbody_timeout: 1s\nadmin: { listen: { host: 127.0.0.1, port: 0 }, health_and_metrics: admin }',
  });
});
afterAll(async () => {
  await daemon.running.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Opens a socket, writes `first` at once and then `trickle` one byte a second, and answers how many
 * milliseconds passed until the server closed the connection (or `giveUpMs`), and what it sent back.
 */
function holdOpen(
  port: number,
  first: string,
  trickle: string,
  giveUpMs: number,
): Promise<{ ms: number; text: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let sent = 0;
    const finish = (): void => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ ms: Date.now() - started, text });
    };
    const drip = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++] ?? '');
    }, 1_000);
    const giveUp = setTimeout(finish, giveUpMs);
    socket.on('connect', () => socket.write(first));
    socket.on('data', (data) => (text += data.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', finish);
  });
}

const SLOW_HEADERS = 'X-Padding: ' + 'a'.repeat(60) + '\r\n';

describe('timeouts hold within a second or two of their configured value', () => {
  it('closes a main-listener connection sending headers at 1 byte/s soon after header_timeout (1 s)', async () => {
    const result = await holdOpen(
      daemon.running.port,
      'POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\n',
      SLOW_HEADERS,
      40_000,
    );
    // Before the fix, Node's 30 s sweep let this socket live about 30 s.
    expect(result.ms).toBeLessThan(1_000 + 3_000);
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
  }, 60_000);

  it('closes an admin-listener connection sending headers at 1 byte/s just as soon', async () => {
    const port = daemon.running.adminPort;
    expect(port).not.toBeNull();
    const result = await holdOpen(port as number, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', SLOW_HEADERS, 40_000);
    expect(result.ms).toBeLessThan(1_000 + 3_000);
  }, 60_000);

  it('answers 408 and closes a body sent at 1 byte/s soon after body_timeout (1 s), storing nothing', async () => {
    const body = JSON.stringify({ event: 'a.b', timestamp: '2026-11-22T10:00:00Z', data: {} });
    const head = `POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${sign(body, SOURCE_SECRET)}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const result = await holdOpen(daemon.running.port, head, body, 40_000);
    expect(result.ms).toBeLessThan(1_000 + 3_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 408/);
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
  }, 60_000);

  it('closes an idle keep-alive connection soon after the 5 s keep-alive timeout', async () => {
    const result = await holdOpen(daemon.running.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', '', 40_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 404/); // answered (nothing at that path here), then left idle
    expect(result.ms).toBeGreaterThan(4_000);
    expect(result.ms).toBeLessThan(5_000 + 3_000);
  }, 60_000);
});
