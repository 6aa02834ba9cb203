import { afterEach, describe, expect, it } from 'vitest';
import { AUTH_FAILURES_METRIC } from '../../../src/admin/api/create-admin-auth.js';
import { createKeyMatcher } from '../../../src/admin/api/create-key-matcher.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { ALL_KEYS, OPERATOR, READER, REPLAYER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function start(options: Partial<Parameters<typeof startAdminApi>[0]> = {}): Promise<AdminApiHarness> {
  api = await startAdminApi({ rules, ...options });
  return api;
}

describe('admin API authentication', () => {
  it('answers 401 without a key, with a challenge, and counts and logs the refusal', async () => {
    const { request, metrics, logs } = await start();
    const answer = await request('/api/v1/events');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      error: { code: 'unauthorized', message: 'a valid admin API key is required (Authorization: Bearer sy_...)' },
    });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="switchyard-admin"');
    expect(await metrics.value(AUTH_FAILURES_METRIC, { reason: 'missing' })).toBe(1);
    expect(logs()).toContain('"reason":"missing"');
    expect(logs()).toContain('"path":"/api/v1/events"');
  });

  it('answers 401 to a wrong key and never logs the key that was presented', async () => {
    const { request, metrics, logs } = await start();
    const wrong = `${READER.key.slice(0, -1)}${READER.key.endsWith('A') ? 'B' : 'A'}`;
    const answer = await request('/api/v1/events', { key: wrong });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await metrics.value(AUTH_FAILURES_METRIC, { reason: 'invalid' })).toBe(1);
    expect(logs()).toContain('"reason":"invalid"');
    expect(logs()).not.toContain(wrong);
    expect(logs()).not.toContain(wrong.slice(3, 20));
  });

  it('answers 401 to a header that is not a bearer key', async () => {
    const { request, metrics } = await start();
    for (const authorization of [`Basic ${READER.key}`, 'Bearer', `Bearer ${READER.key} extra`, READER.key]) {
      const answer = await request('/api/v1/events', { headers: { authorization } });
      expect(answer.status, authorization).toBe(401);
    }
    expect(await metrics.value(AUTH_FAILURES_METRIC, { reason: 'malformed' })).toBe(4);
  });

  it('accepts the scheme in any case, as RFC 7235 wants', async () => {
    const { request } = await start();
    const answer = await request('/api/v1/events', { headers: { authorization: `bearer ${READER.key}` } });
    expect(answer.status).toBe(200);
  });

  it('refuses keys of any length or content with 401, never an error: every comparison is digest to digest', async () => {
    const { request } = await start();
    const candidates = [
      'x',
      READER.key.slice(0, 10), // a prefix of a real key
      `${READER.key}${READER.key}`, // a real key, extended
      'sy_' + 'A'.repeat(4000),
      READER.config.hash.slice('sha256:'.length), // the hash is not the key
    ];
    for (const candidate of candidates) {
      expect((await request('/api/v1/events', { key: candidate })).status, candidate.slice(0, 20)).toBe(401);
    }
  });

  it('answers 403 to a key without the scope, naming the scope, and counts it', async () => {
    const { request, metrics, logs } = await start();
    const read = await request('/api/v1/events', { key: REPLAYER.key });
    expect(read.status).toBe(403);
    expect(read.body).toEqual({
      error: { code: 'insufficient_scope', message: 'the key "replay-bot" lacks the "read" scope' },
    });
    expect(read.headers.get('www-authenticate')).toContain('scope="read"');
    const replay = await request('/api/v1/replay', { key: READER.key, body: { target: 'tickets' } });
    expect(replay.status).toBe(403);
    expect((await request('/api/v1/rules/reload', { key: READER.key, method: 'POST' })).status).toBe(403);
    expect(await metrics.value(AUTH_FAILURES_METRIC, { reason: 'scope' })).toBe(3);
    // The first refusal from this address is logged; the others fall in the same log window.
    expect(logs()).toContain('"key":"replay-bot","level":"warn","message":"admin API request refused"');
  });

  it('serves each scope with the right key, and both with a key that has both', async () => {
    const { request, metrics } = await start();
    expect((await request('/api/v1/targets', { key: READER.key })).status).toBe(200);
    expect((await request('/api/v1/targets', { key: OPERATOR.key })).status).toBe(200);
    const replay = await request('/api/v1/replay', { key: REPLAYER.key, body: { target: 'tickets' } });
    expect(replay.status).toBe(200);
    expect((await request('/api/v1/replay', { key: OPERATOR.key, body: { target: 'tickets' } })).status).toBe(200);
    expect(await metrics.value(AUTH_FAILURES_METRIC, { reason: 'scope' })).toBe(0);
  });

  it('answers 403 to everything, the right key included, when no key is configured', async () => {
    const { request } = await start({ keys: [] });
    for (const path of ['/api/v1/events', '/api/v1/rules', '/api/v1/nope']) {
      const answer = await request(path, { key: OPERATOR.key });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        error: { code: 'admin_disabled', message: 'admin API disabled: no keys configured (admin.keys)' },
      });
    }
  });

  it('authenticates before anything else: unknown paths are 401 without a key, 404 with one', async () => {
    const { request } = await start();
    expect((await request('/api/v1/nope')).status).toBe(401);
    expect((await request('/api/v2/events')).status).toBe(401);
    const known = await request('/api/v1/nope', { key: READER.key });
    expect(known.status).toBe(404);
    expect(known.body).toEqual({ error: { code: 'not_found', message: 'no such admin API route' } });
    // A body is not even parsed for a request without a key.
    expect(
      (await request('/api/v1/route-test', { body: '{not json', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(401);
  });

  it('works the same under a path prefix on a shared listener', async () => {
    const { request } = await start({ prefix: '/admin' });
    expect((await request('/api/v1/rules')).status).toBe(401);
    expect((await request('/api/v1/rules', { key: READER.key })).status).toBe(200);
  });

  it('marks every answer as not cacheable', async () => {
    const { request } = await start();
    expect((await request('/api/v1/rules', { key: READER.key })).headers.get('cache-control')).toBe('no-store');
    expect((await request('/api/v1/rules')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('createKeyMatcher', () => {
  it('finds whichever configured key matches, the last one included', () => {
    const match = createKeyMatcher(ALL_KEYS);
    expect(match(READER.key)?.name).toBe('dashboard');
    expect(match(OPERATOR.key)?.name).toBe('operator');
    expect(match(OPERATOR.key.toUpperCase())).toBeUndefined();
    expect(match('')).toBeUndefined();
  });

  it('refuses a malformed configured hash at once rather than at the first request', () => {
    expect(() => createKeyMatcher([{ name: 'bad', hash: 'sha256:abc', scopes: ['read'] }])).toThrow(/malformed hash/);
  });
});
