import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, postWebhook, sign } from '../helpers/post-webhook.js';
import { rawRequest } from '../helpers/raw-request.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// One daemon for all rejections: it must keep serving after each of them.
let daemon: TestDaemon;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchyard-reject-'));
  daemon = await startTestDaemon(dir, { config: 'max_body: 4kb\nbody_timeout: 300ms\n  ' });
});
afterAll(async () => {
  await daemon.running.close();
  rmSync(dir, { recursive: true, force: true });
});

const good = envelope('incident.created', { incident_id: 'inc_1', severity: 'high' });

async function expectRejected(
  answer: { status: number; body: Record<string, unknown> },
  status: number,
  code: string,
): Promise<void> {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String) } });
  expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
}

describe('ingest: rejected requests store nothing and the daemon keeps serving', () => {
  it('404 for an unknown source', async () => {
    await expectRejected(
      await postWebhook(daemon.url, good, { source: 'nope', secret: SOURCE_SECRET }),
      404,
      'unknown_source',
    );
    await expectRejected(
      await postWebhook(daemon.url, good, { source: 'monitor/extra', secret: SOURCE_SECRET }),
      404,
      'unknown_source',
    );
  });

  it('405 for another method', async () => {
    const answer = await postWebhook(daemon.url, good, { method: 'PUT', secret: SOURCE_SECRET });
    await expectRejected(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('POST');
  });

  it.each([
    ['missing', null],
    ['without the sha256= prefix', sign(good, SOURCE_SECRET).slice(7)],
    ['of the wrong length', sign(good, SOURCE_SECRET).slice(0, -2)],
    ['in uppercase', `sha256=${sign(good, SOURCE_SECRET).slice(7).toUpperCase()}`],
    ['with non-hex digits', `sha256=${'z'.repeat(64)}`],
    ['computed with another secret', sign(good, 'some-other-secret-0123456')],
    ['computed over other bytes', sign(`${good} `, SOURCE_SECRET)],
  ])('401 for a signature %s', async (_what, signature) => {
    await expectRejected(await postWebhook(daemon.url, good, { signature }), 401, 'invalid_signature');
  });

  it.each([
    ['missing', null],
    ['text/plain', 'text/plain'],
    ['form-encoded', 'application/x-www-form-urlencoded'],
  ])('415 for a content type %s', async (_what, contentType) => {
    await expectRejected(
      await postWebhook(daemon.url, good, { contentType, secret: SOURCE_SECRET }),
      415,
      'unsupported_media_type',
    );
  });

  it.each([
    ['invalid JSON', '{"event": "incident.created",', 'invalid_json'],
    ['a JSON array', '[1,2]', 'invalid_envelope'],
    ['a missing data field', JSON.stringify({ event: 'a.b', timestamp: '2026-11-22T10:00:00Z' }), 'invalid_envelope'],
    ['a numeric event', JSON.stringify({ event: 1, timestamp: '2026-11-22T10:00:00Z', data: {} }), 'invalid_envelope'],
    [
      'a timestamp that is not ISO 8601',
      JSON.stringify({ event: 'a.b', timestamp: '22/11/2026', data: {} }),
      'invalid_envelope',
    ],
  ])('400 for %s (correctly signed)', async (_what, body, code) => {
    await expectRejected(await postWebhook(daemon.url, body, { secret: SOURCE_SECRET }), 400, code);
  });

  it('checks the signature before parsing: a wrongly signed invalid body is 401, not 400', async () => {
    await expectRejected(
      await postWebhook(daemon.url, '{"event":', { secret: 'some-other-secret-0123456' }),
      401,
      'invalid_signature',
    );
  });

  it('413 for a declared body over the limit, before reading it', async () => {
    const big = JSON.stringify({ event: 'a.b', timestamp: '2026-11-22T10:00:00Z', data: { pad: 'x'.repeat(5000) } });
    const answer = await rawRequest(
      daemon.running.port,
      [
        `POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${sign(big, SOURCE_SECRET)}\r\nContent-Length: ${big.length}\r\n\r\n`,
      ],
      2000,
    );
    expect(answer.status).toBe(413);
    expect(answer.text).toContain('"code":"body_too_large"');
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('413 for a chunked body that grows over the limit, cutting the connection', async () => {
    const head = `POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${sign('x', SOURCE_SECRET)}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = `1000\r\n${'x'.repeat(4096)}\r\n`;
    const answer = await rawRequest(daemon.running.port, [head, chunk, chunk, chunk], 2000);
    expect(answer.status).toBe(413);
    expect(answer.closed).toBe(true);
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('408 and a closed connection for a client that stalls mid-body', async () => {
    const head = `POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${sign(good, SOURCE_SECRET)}\r\nContent-Length: ${good.length}\r\n\r\n`;
    const answer = await rawRequest(daemon.running.port, [head, good.slice(0, 10)], 3000);
    expect(answer.status).toBe(408);
    expect(answer.text).toContain('"code":"body_timeout"');
    expect(answer.closed).toBe(true);
    expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('keeps serving after all of that', async () => {
    const answer = await postWebhook(
      daemon.url,
      envelope('incident.created', { incident_id: 'inc_after', severity: 'high' }),
      { secret: SOURCE_SECRET },
    );
    expect(answer.status).toBe(200);
    const rejections = daemon.logs().filter((l) => l.message === 'webhook rejected');
    expect(rejections.length).toBeGreaterThan(0);
    expect(daemon.rawLogs()).not.toContain(SOURCE_SECRET);
  });
});
