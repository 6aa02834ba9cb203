import { afterEach, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/admin/api/new-api-key.js';
import { startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const TOKEN = 'admin-token-placeholder-0123';
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

/** Two admin API keys in the daemon config: one that may read, one that may only replay. */
function withKeys(): { reader: string; replayer: string; config: string } {
  const reader = newApiKey();
  const replayer = newApiKey();
  return {
    reader: reader.key,
    replayer: replayer.key,
    config: `admin:
  listen: { host: 127.0.0.1, port: 0 }
  keys:
    - { name: dashboard, hash: "${reader.hash}", scopes: [read] }
    - { name: replay-bot, hash: "${replayer.hash}", scopes: [replay] }`,
  };
}

const scrape = (d: TestDaemon, authorization?: string) =>
  fetch(`${d.url}/metrics`, authorization === undefined ? {} : { headers: { authorization } });

describe('admin routes', () => {
  it('serves health and readiness without a credential', async () => {
    daemon = await startTestDaemon(tempDir());
    expect(await (await fetch(`${daemon.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);
  });

  it('keeps /metrics closed (403) when neither an admin token nor an admin key is configured, and logs the refusal', async () => {
    daemon = await startTestDaemon(tempDir());
    const response = await scrape(daemon, `Bearer ${TOKEN}`);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'admin_disabled' } });
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'metrics request refused', reason: 'disabled' }),
    );
  });

  it('asks for the token, refuses a wrong one, and serves counters with the right one', async () => {
    daemon = await startTestDaemon(tempDir(), { env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    expect((await scrape(daemon)).status).toBe(401);
    expect((await scrape(daemon, `Bearer ${TOKEN}x`)).status).toBe(401);
    const response = await scrape(daemon, `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('# TYPE switchyard_events_received_total counter');
    expect(text).not.toContain(TOKEN);
  });

  it('serves /metrics to an admin API key with the read scope, and to the token when both are configured', async () => {
    const keys = withKeys();
    daemon = await startTestDaemon(tempDir(), { config: keys.config, env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    const byKey = await scrape(daemon, `Bearer ${keys.reader}`);
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('content-type')).toContain('text/plain');
    expect(await byKey.text()).toContain('# TYPE switchyard_events_received_total counter');
    expect((await scrape(daemon, `bearer ${keys.reader}`)).status).toBe(200); // the scheme in any case
    expect((await scrape(daemon, `Bearer ${TOKEN}`)).status).toBe(200);
  });

  it('opens /metrics with admin keys alone (no token), and refuses a key without the read scope with 403', async () => {
    const keys = withKeys();
    daemon = await startTestDaemon(tempDir(), { config: keys.config });
    expect((await scrape(daemon, `Bearer ${keys.reader}`)).status).toBe(200);
    const refused = await scrape(daemon, `Bearer ${keys.replayer}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { code: 'insufficient_scope', message: 'the key "replay-bot" lacks the "read" scope' },
    });
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    // The token is not configured here: presenting some string that looks like one is just a wrong key.
    expect((await scrape(daemon, `Bearer ${TOKEN}`)).status).toBe(401);
  });

  it('logs and counts failed /metrics credentials in the admin failure metric, never logging what was presented', async () => {
    const keys = withKeys();
    daemon = await startTestDaemon(tempDir(), { config: keys.config, env: { SWITCHYARD_ADMIN_TOKEN: TOKEN } });
    const wrongKey = `${keys.reader.slice(0, -1)}${keys.reader.endsWith('A') ? 'B' : 'A'}`;
    const missing = await scrape(daemon);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="switchyard-admin"');
    expect((await scrape(daemon, `Basic ${keys.reader}`)).status).toBe(401);
    const invalid = await scrape(daemon, `Bearer ${wrongKey}`);
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await invalid.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect((await scrape(daemon, `Bearer ${TOKEN.slice(0, -1)}`)).status).toBe(401);
    expect((await scrape(daemon, `Bearer ${keys.replayer}`)).status).toBe(403);

    const text = await (await scrape(daemon, `Bearer ${keys.reader}`)).text();
    const count = (reason: string) =>
      new RegExp(`^switchyard_admin_auth_failures_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text)?.[1];
    expect(count('missing')).toBe('1');
    expect(count('malformed')).toBe('1');
    expect(count('invalid')).toBe('2');
    expect(count('scope')).toBe('1');

    // One line per address per log window: the others are only counted (see admin-auth-refusals.test.ts).
    const refusals = daemon.logs().filter((line) => line.message === 'metrics request refused');
    expect(refusals.map((line) => line.reason)).toEqual(['missing']);
    expect(refusals[0]).toMatchObject({ level: 'warn', method: 'GET', path: '/metrics', peer: expect.any(String) });
    const logs = daemon.rawLogs();
    for (const secret of [keys.reader, keys.replayer, wrongKey, TOKEN, TOKEN.slice(0, -1)]) {
      expect(logs).not.toContain(secret);
    }
    expect(logs).not.toContain(wrongKey.slice(3, 20));
  });

  it('slows down an address after repeated wrong credentials on any admin surface: 429 on /metrics too', async () => {
    const keys = withKeys();
    daemon = await startTestDaemon(tempDir(), { config: keys.config.replace(/listen: .*/, 'listen: null') });
    const wrongKey = `${keys.reader.slice(0, -1)}${keys.reader.endsWith('A') ? 'B' : 'A'}`;
    const events = `${daemon.url}/admin/api/v1/events`;
    for (let i = 0; i < 3; i += 1) {
      expect((await fetch(events, { headers: { authorization: `Bearer ${wrongKey}` } })).status).toBe(401);
    }
    expect((await scrape(daemon, `Bearer ${wrongKey}`)).status).toBe(401);
    expect((await scrape(daemon, `Bearer ${wrongKey}`)).status).toBe(401);
    // Five wrong keys from this address: the right key waits as well, on both surfaces.
    const scraped = await scrape(daemon, `Bearer ${keys.reader}`);
    expect(scraped.status).toBe(429);
    expect(Number(scraped.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await fetch(events, { headers: { authorization: `Bearer ${keys.reader}` } })).status).toBe(429);
    // Health checks carry no credential and are never slowed down.
    expect((await fetch(`${daemon.url}/readyz`)).status).toBe(200);
  });

  it('answers unknown paths with a JSON 404', async () => {
    daemon = await startTestDaemon(tempDir());
    const response = await fetch(`${daemon.url}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'no such route' } });
  });
});
