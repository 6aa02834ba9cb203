import { afterEach, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/admin/api/new-api-key.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

describe('the admin API on a running daemon', () => {
  it('serves its own listener (loopback by default): 401 without a key, 403 without the scope, 200 with it', async () => {
    const reader = newApiKey();
    const replayer = newApiKey();
    // Only the port is set (0: a free one); the host is left to its default.
    daemon = await startTestDaemon(tempDir(), {
      config: `admin:
  listen: { port: 0 }
  keys:
    - { name: dashboard, hash: "${reader.hash}", scopes: [read] }
    - { name: replay-bot, hash: "${replayer.hash}", scopes: [replay] }`,
    });
    expect(daemon.running.config.admin.listen?.host).toBe('127.0.0.1');
    const adminPort = daemon.running.adminPort;
    expect(adminPort).not.toBeNull();
    expect(adminPort).not.toBe(daemon.running.port);
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({ message: 'switchyard listening', admin_port: adminPort }),
    );
    const posted = await postWebhook(daemon.url, envelope('agent.offline', { hostname: 'db-1' }), {
      secret: SOURCE_SECRET,
    });
    expect(posted.status).toBe(200);

    const api = `http://127.0.0.1:${adminPort}/api/v1`;
    const get = (route: string, key?: string) =>
      fetch(`${api}${route}`, key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } });

    const missing = await get('/events');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="switchyard-admin"');
    expect((await get('/events', newApiKey().key)).status).toBe(401);
    const unscoped = await get('/events', replayer.key);
    expect(unscoped.status).toBe(403);
    expect(await unscoped.json()).toMatchObject({ error: { code: 'insufficient_scope' } });

    const listed = await get('/events', reader.key);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(await listed.json()).toMatchObject({
      items: [{ id: posted.body.id, source: 'monitor', kind: 'agent.offline' }],
      nextCursor: null,
    });
    const targets = await get('/targets', reader.key);
    expect(targets.status).toBe(200);

    // The API lives on its own listener only: the main listener serves neither /api nor /admin/api.
    expect(
      (await fetch(`${daemon.url}/api/v1/events`, { headers: { authorization: `Bearer ${reader.key}` } })).status,
    ).toBe(404);
    expect(
      (await fetch(`${daemon.url}/admin/api/v1/events`, { headers: { authorization: `Bearer ${reader.key}` } })).status,
    ).toBe(404);
    // Every refusal was counted; the reader key can read the count through /metrics on the main listener.
    const metrics = await (
      await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${reader.key}` } })
    ).text();
    expect(metrics).toMatch(/^switchyard_admin_auth_failures_total\{reason="missing"\} 1$/m);
    expect(metrics).toMatch(/^switchyard_admin_auth_failures_total\{reason="invalid"\} 1$/m);
    expect(metrics).toMatch(/^switchyard_admin_auth_failures_total\{reason="scope"\} 1$/m);
  });

  it('opens no admin listener while no key is configured, and the API under /admin answers 403', async () => {
    daemon = await startTestDaemon(tempDir(), { config: 'admin: { listen: { port: 0 } }' });
    expect(daemon.running.adminPort).toBeNull();

    daemon = await restart(daemon, 'admin: { listen: null }');
    const refused = await fetch(`${daemon.url}/admin/api/v1/events`, {
      headers: { authorization: `Bearer ${newApiKey().key}` },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'admin_disabled' } });
  });
});

async function restart(d: TestDaemon, config: string): Promise<TestDaemon> {
  await d.running.close();
  return startTestDaemon(d.dir, { config });
}
