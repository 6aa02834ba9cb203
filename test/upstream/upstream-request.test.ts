import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookSubscription } from '../../src/upstream/create-webhook-subscription.js';
import { upstreamRequest } from '../../src/upstream/upstream-request.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';

const KEY = 'test-api-key-redirect-0123456789';
let service: HttpReceiver;
let elsewhere: HttpReceiver;
beforeEach(async () => {
  [service, elsewhere] = await Promise.all([startHttpReceiver(), startHttpReceiver()]);
});
afterEach(() => Promise.all([service.close(), elsewhere.close()]));

describe('upstreamRequest', () => {
  it('appends the path to the base URL path', async () => {
    service.script({ status: 200, body: '{"data":[]}' });
    const answer = await upstreamRequest(new URL(`${service.url}/monitor/api/`), {
      method: 'GET',
      path: '/v1/agents',
      bearer: KEY,
    });
    expect(answer.status).toBe(200);
    expect(service.requests[0]?.url).toBe('/monitor/api/v1/agents');
    expect(service.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('never sends the key to another host through a base path starting with //', async () => {
    const host = new URL(elsewhere.url).host;
    // Built directly (parseUpstreamBaseUrl refuses it): the request itself must not be fooled either.
    const answer = await upstreamRequest(new URL(`${service.url}//${host}/x`), {
      method: 'GET',
      path: '/v1/agents',
      bearer: KEY,
    });
    expect(answer.status).toBe(200);
    expect(elsewhere.requests).toHaveLength(0);
    expect(service.requests[0]?.url).toBe(`//${host}/x/v1/agents`);
  });

  it('does not follow a redirect, so the key never travels on, and says where it pointed', async () => {
    service.script({ status: 307, headers: { location: `${elsewhere.url}/v1/webhooks?k=${KEY}` } });
    const failure = createWebhookSubscription(new URL(service.url), KEY, 'SWITCHYARD_UPSTREAM_API_KEY', {
      url: 'https://sy.example.com/webhooks/monitor',
      events: ['agent.offline'],
      secret: 'secret-0123456789abcdef',
    });
    await expect(failure).rejects.toThrow(
      `creating the webhook subscription failed: 307 (the service redirects to ${elsewhere.url}; give that URL as --base-url`,
    );
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('gives up after its timeout, naming the service by scheme and host', async () => {
    service.script({ status: 200, delayMs: 2_000 });
    const request = upstreamRequest(new URL(`${service.url}/api`), {
      method: 'GET',
      path: '/v1/agents',
      bearer: KEY,
      timeoutMs: 100,
    });
    await expect(request).rejects.toThrow(`cannot reach ${service.url}: no answer within 100 ms`);
  });
});
