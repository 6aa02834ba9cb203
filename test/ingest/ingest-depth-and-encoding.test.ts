import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_DEPTH } from '../../src/ingest/parse-envelope.js';
import { deepEvent } from '../helpers/deep-event.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';

let daemon: TestDaemon;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchyard-depth-'));
  daemon = await startTestDaemon(dir);
});
afterAll(async () => {
  await daemon.running.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectRefused(body: Buffer | string, code: string): Promise<void> {
  const answer = await postWebhook(daemon.url, body, { secret: SOURCE_SECRET });
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String) } });
  expect(await daemon.counts()).toEqual({ events: 0, deliveries: 0 });
}

describe('ingest: signed events too deep or not UTF-8 get a documented 400, never a 500', () => {
  it.each([5_000, 100_000])('400 event_too_deep for data.severity nested %i levels', async (depth) => {
    await expectRefused(deepEvent(depth), 'event_too_deep');
  });

  it('400 invalid_json for a body that is not valid UTF-8, stored nothing', async () => {
    const text = envelope('incident.created', { incident_id: 'inc_bad', severity: 'high', note: 'AB' });
    // A lone continuation byte and an overlong encoding of '/', each invalid UTF-8 (RFC 3629).
    const bad = Buffer.from(text.replace('AB', '\u0001\u0002'));
    bad[bad.indexOf(1)] = 0x80;
    bad[bad.indexOf(2)] = 0xc0;
    await expectRefused(bad, 'invalid_json');
  });

  it('still accepts an event at the depth limit, and keeps serving after the refusals', async () => {
    // The envelope is level 1, data level 2, so severity may nest MAX_EVENT_DEPTH - 2 levels.
    const answer = await postWebhook(daemon.url, deepEvent(MAX_EVENT_DEPTH - 2), { secret: SOURCE_SECRET });
    expect(answer.status).toBe(200);
    expect((await daemon.counts()).events).toBe(1);
    const utf8 = envelope('incident.created', { incident_id: 'inc_utf8', severity: 'high', note: 'Zürich ✓' });
    expect((await postWebhook(daemon.url, utf8, { secret: SOURCE_SECRET })).status).toBe(200);
    expect((await daemon.counts()).events).toBe(2);
  });
});
