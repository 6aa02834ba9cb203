import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdminApp } from '../../src/admin/create-admin-app.js';
import { createMetrics } from '../../src/admin/metrics.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { writeFakeConsoleBuild } from './console/fake-console-build.js';

const tempDir = useTempDirs();
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

const ITEMS = Array.from({ length: 200 }, (_, i) => ({ id: `evt_${i}`, title: `Login burst on vpn-${i % 7}` }));
const SCRIPT = `export const rows = ${JSON.stringify(ITEMS)};\n`.repeat(5);

/** The admin listener's app with a built console holding a large script, and an API with a large and a small answer. */
async function serve(): Promise<string> {
  const consoleDir = writeFakeConsoleBuild(tempDir());
  writeFileSync(path.join(consoleDir, 'assets', 'index-big.js'), SCRIPT);
  const api = express.Router();
  api.get('/api/v1/events', (_req, res) => void res.json({ items: ITEMS, nextCursor: null }));
  api.get('/api/v1/small', (_req, res) => void res.json({ ok: true }));
  const app = createAdminApp({
    metrics: createMetrics([]),
    metricsGuard: (_req, res) => void res.status(401).end(),
    readiness: () => Promise.reject(new Error('not asked in these tests')),
    healthAndMetrics: true,
    api,
    consoleDir,
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A raw request (fetch would decompress on its own): the status, headers and the bytes as sent. */
function get(url: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('compressed answers of the admin listener', () => {
  it('gzips or brotli-compresses JSON answers and console files as Accept-Encoding allows, with Vary', async () => {
    const url = await serve();
    const json = JSON.stringify({ items: ITEMS, nextCursor: null });
    const gz = await get(`${url}/api/v1/events`, { 'accept-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('Accept-Encoding');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(gz.body.length).toBeLessThan(json.length / 4);
    expect(gunzipSync(gz.body).toString('utf8')).toBe(json);

    const br = await get(`${url}/console/assets/index-big.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['accept-ranges']).toBeUndefined();
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(SCRIPT);
  });

  it('sends the answer as it is without Accept-Encoding, for HEAD, a byte range and a small answer', async () => {
    const url = await serve();
    const plain = await get(`${url}/api/v1/events`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual({ items: ITEMS, nextCursor: null });
    const refused = await get(`${url}/api/v1/events`, { 'accept-encoding': 'gzip;q=0, br;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();

    const head = await get(`${url}/console/assets/index-big.js`, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));

    const range = await get(`${url}/console/assets/index-big.js`, { 'accept-encoding': 'gzip', range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.toString('utf8')).toBe(SCRIPT.slice(0, 10));

    const small = await get(`${url}/api/v1/small`, { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString('utf8')).toBe('{"ok":true}');
  });
});
