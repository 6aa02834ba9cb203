import { describe, expect, it } from 'vitest';
import { ApiError, describeError } from '../../console/src/api/api-error.js';
import { createAdminClient } from '../../console/src/api/admin-client.js';

interface Sent {
  readonly url: string;
  readonly init: RequestInit;
}

/** A fetch that records what it was asked and answers from a list. */
function fakeFetch(answers: Response[]) {
  const sent: Sent[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no answer left');
    return answer;
  }) as unknown as typeof fetch;
  return { sent, fetchFn };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const SESSION = { key: 'ops', scopes: ['read', 'replay'], csrfToken: 'tok-1', expiresAt: '2026-11-22T18:00:00Z' };

describe('createAdminClient', () => {
  it('sends the CSRF token it got at sign-in on every change, never on reads, and forgets it at sign-out', async () => {
    const { sent, fetchFn } = fakeFetch([
      json(200, SESSION),
      json(200, { items: [], nextCursor: null }),
      json(200, { dryRun: true, count: 2, ids: ['dlv_1', 'dlv_2'] }),
      new Response(null, { status: 204 }),
      json(401, { error: { code: 'unauthorized', message: 'sign in' } }),
    ]);
    const client = createAdminClient(fetchFn);
    expect(await client.signIn('sy_key')).toEqual(SESSION);
    await client.events({ kind: 'a.b', q: '', cursor: undefined, limit: 50 });
    await client.replay({ ids: ['dlv_1', 'dlv_2'], dryRun: true });
    await client.signOut();
    await expect(client.session()).rejects.toBeInstanceOf(ApiError);

    const headers = sent.map((s) => s.init.headers as Record<string, string>);
    expect(sent.map((s) => `${s.init.method} ${s.url}`)).toEqual([
      'POST /api/v1/session',
      'GET /api/v1/events?kind=a.b&limit=50',
      'POST /api/v1/replay',
      'DELETE /api/v1/session',
      'GET /api/v1/session',
    ]);
    expect(sent.every((s) => s.init.credentials === 'same-origin')).toBe(true);
    expect(headers[0]?.['x-csrf-token']).toBeUndefined();
    expect(headers[1]?.['x-csrf-token']).toBeUndefined();
    expect(headers[2]?.['x-csrf-token']).toBe('tok-1');
    expect(headers[3]?.['x-csrf-token']).toBe('tok-1');
    expect(sent[2]?.init.body).toBe('{"ids":["dlv_1","dlv_2"],"dryRun":true}');
  });

  it('turns refusals into ApiErrors with their code, and reports a lost session except at sign-in', async () => {
    let lost = 0;
    const { fetchFn } = fakeFetch([
      json(429, { error: { code: 'too_many_failures', message: 'wait' } }, { 'retry-after': '4' }),
      json(401, { error: { code: 'unauthorized', message: 'no session' } }),
      new Response('<html>proxy error</html>', { status: 502 }),
    ]);
    const client = createAdminClient(fetchFn, { onUnauthorized: () => (lost += 1) });
    const throttled = await client.signIn('sy_wrong').catch((error: unknown) => error);
    expect(throttled).toMatchObject({ status: 429, code: 'too_many_failures', retryAfter: 4 });
    expect(describeError(throttled)).toBe('wait (too_many_failures). Try again in 4 s.');
    expect(lost).toBe(0);
    await expect(client.overview(6)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(lost).toBe(1);
    await expect(client.targets()).rejects.toMatchObject({ status: 502, code: 'http_502' });
  });
});
