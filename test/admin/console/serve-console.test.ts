import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdminApp } from '../../../src/admin/create-admin-app.js';
import { createMetrics } from '../../../src/admin/metrics.js';
import { SECURITY_HEADERS } from '../../../src/admin/security-headers.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { FAKE_INDEX, FAKE_SCRIPT, writeFakeConsoleBuild } from './fake-console-build.js';

const tempDir = useTempDirs();
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** The admin listener's app, with the console folder given and no API, over real HTTP. */
async function serve(consoleDir: string): Promise<string> {
  const app = createAdminApp({
    metrics: createMetrics([]),
    metricsGuard: (_req, res) => void res.status(401).end(),
    readiness: () => Promise.reject(new Error('not asked in these tests')),
    healthAndMetrics: true,
    consoleDir,
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('serving the built console', () => {
  it('serves index.html without caching, hashed assets for good, and index.html for the page routes', async () => {
    const url = await serve(writeFakeConsoleBuild(tempDir()));
    const page = await get(`${url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toBe(FAKE_INDEX);
    const script = await get(`${url}/console/assets/index-abc123.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await script.text()).toBe(FAKE_SCRIPT);
    for (const route of ['/console/events/evt_1', '/console/dead-letters', '/console/index.html']) {
      const answer = await get(`${url}${route}?target=x`);
      expect(answer.status, route).toBe(200);
      expect(answer.headers.get('cache-control'), route).toBe('no-cache');
      expect(await answer.text(), route).toBe(FAKE_INDEX);
    }
    expect((await get(`${url}/console/favicon.svg`)).headers.get('cache-control')).toBe('no-cache');
  });

  it('redirects / and /console to /console/, and answers JSON 404s for missing files and other paths', async () => {
    const url = await serve(writeFakeConsoleBuild(tempDir()));
    for (const route of ['/', '/console']) {
      const answer = await get(`${url}${route}`);
      expect([301, 302], route).toContain(answer.status);
      expect(answer.headers.get('location'), route).toBe('/console/');
    }
    for (const route of [
      '/console/assets/missing-1.js',
      '/console/missing.css',
      '/console/../package.json',
      '/other',
    ]) {
      const answer = await get(`${url}${route}`);
      expect(answer.status, route).toBe(404);
      expect(answer.headers.get('content-type'), route).toContain('application/json');
    }
    expect((await fetch(`${url}/console/`, { method: 'POST' })).status).toBe(404);
  });

  it('says so when the console was not built', async () => {
    const url = await serve(path.join(tempDir(), 'console'));
    for (const route of ['/console/', '/console/events', '/console/assets/index-abc123.js']) {
      const answer = await get(`${url}${route}`);
      expect(answer.status, route).toBe(404);
      expect(await answer.json(), route).toEqual({
        error: {
          code: 'console_not_built',
          message: 'the console was not built (npm run build writes dist/console/)',
        },
      });
    }
  });

  it('sends the security headers on every answer: the page, assets, health and 404s', async () => {
    const url = await serve(writeFakeConsoleBuild(tempDir()));
    for (const route of ['/console/', '/console/assets/index-abc123.js', '/healthz', '/nowhere', '/']) {
      const answer = await get(`${url}${route}`);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(answer.headers.get(name), route).toBe(value);
    }
    expect(SECURITY_HEADERS['content-security-policy']).toBe(
      "default-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; object-src 'none'",
    );
  });
});
