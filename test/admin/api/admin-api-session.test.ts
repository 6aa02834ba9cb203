import { afterEach, describe, expect, it } from 'vitest';
import { AUTH_FAILURES_METRIC } from '../../../src/admin/api/create-admin-auth.js';
import { newApiKey } from '../../../src/admin/api/new-api-key.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { seedJournal } from './seed-journal.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { ALL_KEYS, OPERATOR, READER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
const TTL = 8 * 3_600_000;
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function start(options: Partial<Parameters<typeof startAdminApi>[0]> = {}): Promise<AdminApiHarness> {
  api = await startAdminApi({ rules, sessionTtlMs: TTL, ...options });
  return api;
}

interface Session {
  readonly cookie: string;
  readonly csrfToken: string;
  readonly setCookie: string;
  readonly body: Record<string, unknown>;
}
async function signIn(harness: AdminApiHarness, key: string): Promise<Session> {
  const answer = await harness.request('/api/v1/session', { body: { key } });
  expect(answer.status).toBe(200);
  const setCookie = answer.headers.get('set-cookie') ?? '';
  const body = answer.body as Record<string, unknown>;
  return { cookie: setCookie.split(';')[0] ?? '', csrfToken: String(body.csrfToken), setCookie, body };
}
const withCookie = (session: Session, headers: Record<string, string> = {}) => ({
  headers: { cookie: session.cookie, ...headers },
});

describe('admin console session', () => {
  it('signs in with a key: its name, scopes, a CSRF token, the expiry, and a strict HttpOnly cookie', async () => {
    const a = await start();
    const session = await signIn(a, OPERATOR.key);
    expect(session.body).toEqual({
      key: 'operator',
      scopes: ['read', 'replay'],
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: new Date(a.clock.now() + TTL).toISOString(),
    });
    expect(session.setCookie).toMatch(
      /^sy_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=28800$/,
    );
    // Plain HTTP here: no Secure flag (it is set when the request came over TLS).
    expect(session.setCookie).not.toContain('Secure');
    expect(a.logs()).not.toContain(OPERATOR.key);
    expect(a.logs()).not.toContain(session.cookie.slice('sy_session='.length));
    // The cookie reads the API, and GET /session gives a reloaded page the same CSRF token back.
    expect((await a.request('/api/v1/events', withCookie(session))).status).toBe(200);
    const again = await a.request('/api/v1/session', withCookie(session));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(session.body);
    expect((await a.request('/api/v1/session')).status).toBe(401);
    // A Bearer request has no session to show.
    expect((await a.request('/api/v1/session', { key: READER.key })).status).toBe(401);
  });

  it('enforces the scopes of the key that signed in, even with a valid CSRF token', async () => {
    const a = await start();
    const seed = await seedJournal(a.store);
    const id = seed.delivery(0, 'soc-slack');
    const reader = await signIn(a, READER.key);
    const forged = await a.request(`/api/v1/deliveries/${id}/replay`, {
      method: 'POST',
      ...withCookie(reader, { 'x-csrf-token': reader.csrfToken }),
    });
    expect(forged.status).toBe(403);
    expect((forged.body as { error: { code: string } }).error.code).toBe('insufficient_scope');
    expect(await a.store.getDelivery(id)).toMatchObject({ state: 'dead' });
    const operator = await signIn(a, OPERATOR.key);
    const replayed = await a.request(`/api/v1/deliveries/${id}/replay`, {
      method: 'POST',
      ...withCookie(operator, { 'x-csrf-token': operator.csrfToken }),
    });
    expect(replayed.status).toBe(200);
    expect(await a.store.getDelivery(id)).toMatchObject({ state: 'pending' });
  });

  it('refuses a state-changing cookie request without its CSRF token, or with another one, and changes nothing', async () => {
    const a = await start();
    const seed = await seedJournal(a.store);
    const id = seed.delivery(0, 'soc-slack');
    const operator = await signIn(a, OPERATOR.key);
    const other = await signIn(a, OPERATOR.key);
    const variants: Record<string, string>[] = [
      {},
      { 'x-csrf-token': other.csrfToken },
      { 'x-csrf-token': '' },
      { 'x-csrf-token': 'x' },
    ];
    for (const headers of variants) {
      const answer = await a.request(`/api/v1/deliveries/${id}/replay`, {
        method: 'POST',
        ...withCookie(operator, headers),
      });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        error: {
          code: 'csrf_token_invalid',
          message: 'a request made with the console session needs its X-CSRF-Token',
        },
      });
    }
    expect(await a.store.getDelivery(id)).toMatchObject({ state: 'dead', attempts: 1 });
    expect(await a.metrics.value(AUTH_FAILURES_METRIC, { reason: 'csrf' })).toBe(4);
    // Sign-out needs it too.
    expect((await a.request('/api/v1/session', { method: 'DELETE', ...withCookie(operator) })).status).toBe(403);
    expect((await a.request('/api/v1/session', withCookie(operator))).status).toBe(200);
  });

  it('expires after the TTL', async () => {
    const a = await start();
    const session = await signIn(a, READER.key);
    a.clock.advance(TTL - 1);
    expect((await a.request('/api/v1/events', withCookie(session))).status).toBe(200);
    a.clock.advance(1);
    const expired = await a.request('/api/v1/events', withCookie(session));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: { code: 'unauthorized', message: 'the console session expired' } });
    expect(expired.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await a.metrics.value(AUTH_FAILURES_METRIC, { reason: 'session' })).toBe(1);
  });

  it('is revoked when the key that signed in is rotated or removed', async () => {
    const a = await start();
    const reader = await signIn(a, READER.key);
    const operator = await signIn(a, OPERATOR.key);
    const rotated = { ...READER.config, hash: newApiKey().hash };
    a.setKeys(ALL_KEYS.map((key) => (key.name === READER.config.name ? rotated : key)));
    const revoked = await a.request('/api/v1/events', withCookie(reader));
    expect(revoked.status).toBe(401);
    expect(revoked.text).toContain('revoked: the key that signed in was rotated or removed');
    expect((await a.request('/api/v1/events', withCookie(operator))).status).toBe(200);
    a.setKeys(ALL_KEYS.filter((key) => key.name !== OPERATOR.config.name));
    expect((await a.request('/api/v1/events', withCookie(operator))).status).toBe(401);
  });

  it('signs out: 204, the cookie cleared, the session forgotten', async () => {
    const a = await start();
    const session = await signIn(a, READER.key);
    const out = await a.request('/api/v1/session', {
      method: 'DELETE',
      ...withCookie(session, { 'x-csrf-token': session.csrfToken }),
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe('sy_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
    expect((await a.request('/api/v1/session', withCookie(session))).status).toBe(401);
    expect((await a.request('/api/v1/events', withCookie(session))).status).toBe(401);
  });

  it('says that it does not know a session another daemon (or this one before a restart) opened', async () => {
    const before = await start();
    const session = await signIn(before, READER.key);
    await before.close();
    api = undefined;
    const after = await start();
    const answer = await after.request('/api/v1/events', withCookie(session));
    expect(answer.status).toBe(401);
    expect(answer.text).toContain('it restarted since the sign-in');
    expect(answer.text).not.toMatch(/revoked|rotated|expired/);
  });

  it('refuses a wrong key as a wrong Bearer key is, and slows the address down across both', async () => {
    const a = await start({
      throttle: { freeFailures: 2, baseDelayMs: 2_000, maxDelayMs: 60_000, forgetAfterMs: 600_000, maxAddresses: 10 },
    });
    const wrong = newApiKey().key;
    const refused = await a.request('/api/v1/session', { body: { key: wrong } });
    expect(refused.status).toBe(401);
    expect((refused.body as { error: { code: string } }).error.code).toBe('unauthorized');
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await a.request('/api/v1/events', { key: wrong })).status).toBe(401);
    // Two failures used: the right key now waits, at the sign-in form and on the API alike.
    for (const answer of [
      await a.request('/api/v1/session', { body: { key: READER.key } }),
      await a.request('/api/v1/events', { key: READER.key }),
    ]) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('2');
    }
    expect(await a.metrics.value(AUTH_FAILURES_METRIC, { reason: 'invalid' })).toBe(2);
    expect(a.logs()).not.toContain(wrong);
    a.clock.advance(2_000);
    expect((await a.request('/api/v1/session', { body: { key: READER.key } })).status).toBe(200);
    expect((await a.request('/api/v1/session', { body: {} })).status).toBe(401);
    expect(
      (await a.request('/api/v1/session', { body: 'not json', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
  });

  it('has no sign-in where there are no sessions (the API under /admin on the main listener)', async () => {
    const a = await start({ sessionTtlMs: undefined });
    expect((await a.request('/api/v1/session', { body: { key: READER.key } })).status).toBe(401);
  });

  it('keeps the number of sessions bounded, dropping the oldest first', async () => {
    const { createConsoleSessions } = await import('../../../src/admin/api/create-console-sessions.js');
    const clock = { now: () => 0 };
    const sessions = createConsoleSessions({ clock, ttlMs: TTL, keys: () => ALL_KEYS, maxSessions: 3 });
    const tokens = [1, 2, 3, 4].map(() => sessions.open(READER.config).token);
    expect(tokens.map((token) => typeof sessions.find(token))).toEqual(['string', 'object', 'object', 'object']);
  });
});

describe('session cookie', () => {
  it('is Secure when the request came over TLS, or through a proxy that says it did', async () => {
    const { setSessionCookie } = await import('../../../src/admin/api/session-cookie.js');
    const headers: string[] = [];
    const res = { append: (_name: string, value: string) => headers.push(value) };
    const request = (secure: boolean, proto?: string) => ({ secure, get: () => proto }) as never;
    setSessionCookie(request(true), res as never, 'abc', 60);
    setSessionCookie(request(false, 'https'), res as never, 'abc', 60);
    setSessionCookie(request(false, 'http'), res as never, 'abc', 60);
    expect(headers).toEqual([
      'sy_session=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=60; Secure',
      'sy_session=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=60; Secure',
      'sy_session=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=60',
    ]);
  });
});
