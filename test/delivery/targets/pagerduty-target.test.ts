import { describe, expect, it } from 'vitest';
import { createPagerdutyTarget } from '../../../src/delivery/targets/pagerduty-target.js';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import type { HttpReceiver } from '../../helpers/start-http-receiver.js';
import { receivedEvents, startPagerdutyStandIn, THROTTLED } from '../../helpers/start-pagerduty-stand-in.js';
import { makeJob, makePagerdutySpec, ROUTING_KEY } from './make-target-spec.js';
import { resolvesToMetadata, signal, useHttpTargets } from './use-http-targets.js';

const { receiver, target } = useHttpTargets(createPagerdutyTarget, makePagerdutySpec);
const pagerduty = (): Promise<HttpReceiver> => receiver(startPagerdutyStandIn);
const event = (kind: string, data: Record<string, unknown>) =>
  makeJob({ event: kind, timestamp: '2026-11-22T10:00:00Z', data });

describe('PagerDuty target', () => {
  it('posts a trigger to /v2/enqueue as JSON, and records the dedup_key PagerDuty answers with', async () => {
    const api = await pagerduty();
    const outcome = await target({ baseUrl: api.url }).send(makeJob(), signal());
    expect(outcome).toEqual({
      kind: 'delivered',
      status: 202,
      detail: 'Event processed; dedup_key incident:inc_123',
      captured: { dedup_key: 'incident:inc_123' },
    });
    expect(api.requests[0]).toMatchObject({ method: 'POST', url: '/v2/enqueue' });
    expect(api.requests[0]?.headers['content-type']).toBe('application/json');
    expect(receivedEvents(api)[0]).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'incident:inc_123',
      payload: { summary: 'Ransomware on host-7', severity: 'critical', source: 'monitor' },
    });
  });

  it('resolves with the same dedup_key as the trigger, and a key: template keys both', async () => {
    const api = await pagerduty();
    const pager = target({ baseUrl: api.url, correlationKey: compileTemplate('case-{{ data.incident_id }}') });
    await pager.send(event('incident.created', { incident_id: 'inc_7', severity: 'low', title: 'x' }), signal());
    const resolved = await pager.send(event('incident.resolved', { incident_id: 'inc_7' }), signal());
    expect(resolved).toMatchObject({ kind: 'delivered', status: 202, detail: 'Event processed; dedup_key case-inc_7' });
    expect(receivedEvents(api)).toEqual([
      expect.objectContaining({ event_action: 'trigger', dedup_key: 'case-inc_7' }),
      { routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: 'case-inc_7' },
    ]);
  });

  it('a routing key PagerDuty refuses is permanent, with PagerDuty reason', async () => {
    const api = await pagerduty();
    const outcome = await target({ baseUrl: api.url, routingKey: ROUTING_KEY.slice(1) }).send(makeJob(), signal());
    expect(outcome).toEqual({
      kind: 'permanent',
      status: 400,
      error:
        "PagerDuty answered HTTP 400: Event object is invalid: Length of 'routing_key' is incorrect (should be 32 characters)",
    });
  });

  it('PagerDuty accepts what an extreme event becomes: a huge title and data over its size limit', async () => {
    const api = await pagerduty();
    const data = { title: `\u0000${'🚨'.repeat(100_000)}`, host: ' ', log: 'x'.repeat(700_000), severity: 'weird' };
    const outcome = await target({ baseUrl: api.url }).send(event('threat.detected', data), signal());
    expect(outcome).toMatchObject({ kind: 'delivered', status: 202 });
    expect(receivedEvents(api)[0]).toMatchObject({ payload: { source: 'monitor', severity: 'error' } });
  });

  it('429 is retried as rate limiting, after Retry-After when PagerDuty sends one', async () => {
    const api = await pagerduty();
    api.script({ ...THROTTLED, headers: { ...THROTTLED.headers, 'retry-after': '7' } }, THROTTLED);
    const pager = target({ baseUrl: api.url });
    expect(await pager.send(makeJob(), signal())).toEqual({
      kind: 'retry',
      status: 429,
      error: 'PagerDuty answered HTTP 429: Requests for this service are arriving too quickly. Please retry later.',
      retryAfterMs: 7_000,
      rateLimited: true,
    });
    expect(await pager.send(makeJob(), signal())).toMatchObject({ kind: 'retry', retryAfterMs: undefined });
    expect(await pager.send(makeJob(), signal())).toMatchObject({ kind: 'delivered' });
  });

  it('5xx and network failures are retried', async () => {
    const api = await pagerduty();
    api.script({ status: 502, body: 'Bad Gateway' });
    expect(await target({ baseUrl: api.url }).send(makeJob(), signal())).toMatchObject({
      kind: 'retry',
      status: 502,
      error: 'PagerDuty answered HTTP 502: Bad Gateway',
    });
    expect(await target({ baseUrl: 'http://127.0.0.1:9' }).send(makeJob(), signal())).toEqual({
      kind: 'retry',
      error: 'connection refused (ECONNREFUSED)',
    });
  });

  it('goes through the address guard: a base_url host that resolves to the metadata address is refused', async () => {
    const api = await pagerduty();
    expect(
      await target({ baseUrl: `http://events.pagerduty.internal:${api.port}` }, resolvesToMetadata).send(
        makeJob(),
        signal(),
      ),
    ).toMatchObject({ kind: 'permanent', error: expect.stringContaining('refused to connect to 169.254.169.254') });
    expect(api.requests).toHaveLength(0);
  });

  it('a key: that fails to render is permanent and nothing is sent; an invalid base_url too', async () => {
    const api = await pagerduty();
    const broken = compileTemplate('{% for i in (1..100000000) %}x{% endfor %}');
    const outcome = await target({ baseUrl: api.url, correlationKey: broken }).send(makeJob(), signal());
    expect(outcome.kind === 'permanent' && outcome.error).toMatch(/^the PagerDuty event could not be built: template/);
    expect(await target({ baseUrl: 'events.pagerduty.com' }).send(makeJob(), signal())).toEqual({
      kind: 'permanent',
      error: 'base_url is not a valid URL',
    });
    expect(api.requests).toHaveLength(0);
  });
});
