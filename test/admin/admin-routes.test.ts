import { afterEach, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const TOKEN = 'admin-token-placeholder-0123';
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

describe('admin routes', () => {
  it('serves health and readiness without a credential', async () => {
    daemon = await startTestDaemon(tempDir());
    expect(await (await fetch(`${daemon.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);
  });

  it('keeps /metrics closed when no admin token is configured', async () => {
    daemon = await startTestDaemon(tempDir());
    const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'admin_disabled' } });
  });

  it('asks for the token, refuses a wrong one, and serves counters with the right one', async () => {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    expect((await fetch(`${daemon.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('# TYPE switchyard_events_received_total counter');
    expect(text).not.toContain(TOKEN);
  });

  it('answers unknown paths with a JSON 404', async () => {
    daemon = await startTestDaemon(tempDir());
    const response = await fetch(`${daemon.url}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'no such route' } });
  });
});
