import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { newApiKey } from '../../../src/admin/api/new-api-key.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/start-test-daemon.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { FAKE_INDEX, writeFakeConsoleBuild } from './fake-console-build.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

describe('the console on a running daemon', () => {
  it('is served, with sign-in and the CSP, on the admin listener only', async () => {
    const operator = newApiKey();
    const dir = tempDir();
    daemon = await startTestDaemon(dir, {
      config: `admin:
  listen: { port: 0 }
  console: { session_ttl: 30m }
  keys: [{ name: operator, hash: "${operator.hash}", scopes: [read, replay] }]`,
      consoleDir: writeFakeConsoleBuild(dir),
    });
    const admin = `http://127.0.0.1:${daemon.running.adminPort}`;
    const page = await fetch(`${admin}/console/events/evt_1`);
    expect(await page.text()).toBe(FAKE_INDEX);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");

    const signIn = await fetch(`${admin}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: operator.key }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const cookie = signIn.headers.get('set-cookie') ?? '';
    expect(cookie).toContain('Max-Age=1800');
    const session = { cookie: cookie.split(';')[0] ?? '' };
    const events = await fetch(`${admin}/api/v1/events`, { headers: session });
    expect(events.status).toBe(200);
    // The daemon wires the rules' history and the candidate-rules compiler into the API.
    const overview = (await (await fetch(`${admin}/api/v1/overview`, { headers: session })).json()) as {
      rules: { loadedAt: string | null; lastReload: unknown };
    };
    expect(overview.rules.loadedAt).not.toBeNull();
    expect(overview.rules.lastReload).toBeNull();
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const check = (headers: Record<string, string>) =>
      fetch(`${admin}/api/v1/rules/check`, {
        method: 'POST',
        headers: { ...session, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ rules: readFileSync(daemon?.rulesPath ?? '', 'utf8') }),
      });
    expect((await check({})).status).toBe(403);
    const checked = await check({ 'x-csrf-token': csrfToken });
    // The file in force, checked as text: valid, with the version the daemon's rules have.
    const inForce = (await (await fetch(`${admin}/api/v1/rules`, { headers: session })).json()) as { version: string };
    expect(await checked.json()).toMatchObject({ valid: true, version: inForce.version });

    // The ingest listener: no console, no security headers of the console's, no redirect.
    const main = daemon.url;
    expect((await fetch(`${main}/console/`)).status).toBe(404);
    expect((await fetch(`${main}/`, { redirect: 'manual' })).status).toBe(404);
  });

  it('has no console and no sign-in when the API is served under /admin on the main listener', async () => {
    const operator = newApiKey();
    const dir = tempDir();
    daemon = await startTestDaemon(dir, {
      config: `admin:
  listen: null
  keys: [{ name: operator, hash: "${operator.hash}", scopes: [read] }]`,
      consoleDir: writeFakeConsoleBuild(dir),
    });
    expect(daemon.running.adminPort).toBeNull();
    expect((await fetch(`${daemon.url}/admin/console/`)).status).toBe(404);
    expect((await fetch(`${daemon.url}/console/`)).status).toBe(404);
    const signIn = await fetch(`${daemon.url}/admin/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: operator.key }),
    });
    expect(signIn.status).toBe(401);
    expect(signIn.headers.get('set-cookie')).toBeNull();
  });
});
