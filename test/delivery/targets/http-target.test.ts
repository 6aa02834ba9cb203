import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHttpTarget } from '../../../src/delivery/targets/http-target.js';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import { compileTemplateTree } from '../../../src/templates/compile-template-tree.js';
import { makeHttpSpec, makeJob, TEST_POLICY } from './make-target-spec.js';
import { resolvesToMetadata, signal, useHttpTargets } from './use-http-targets.js';

const { receiver, target } = useHttpTargets(createHttpTarget, makeHttpSpec);

describe('HTTP target: body', () => {
  it('forwards the event byte for byte as application/json', async () => {
    const api = await receiver();
    const raw = readFileSync(new URL('../../fixtures/signatures/agent-offline-spaced.json', import.meta.url));
    const job = makeJob(JSON.parse(raw.toString('utf8')) as Record<string, unknown>, { raw });
    expect(await target({ url: `${api.url}/events` }).send(job, signal())).toMatchObject({ kind: 'delivered' });
    expect(api.requests[0]?.body.equals(raw)).toBe(true);
    expect(api.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('renders a JSON body whose string leaves are templates: well-formed and exact, whatever the event holds', async () => {
    const api = await receiver();
    const hostile = {
      title: 'He said "hi" \\ {{ data.secret }} {% raw %}\n}, "injected": true, "x": "',
      host: '</script><!channel> & \u2028 \u0000',
      long: 'é'.repeat(100_000),
      secret: 'must-not-appear',
    };
    const tree = compileTemplateTree({
      fields: {
        project: { key: 'SOC' },
        summary: '{{ data.title }}',
        description: 'Host {{ data.host }}',
        labels: ['switchyard', '{{ event }}'],
        long: '{{ data.long }}',
        count: 3,
        urgent: true,
        parent: null,
      },
      ref: '{{ switchyard.event_id }}/{{ switchyard.delivery_id }}',
    });
    const job = makeJob({ event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: hostile });
    const outcome = await target({ url: api.url, body: { kind: 'json', tree } }).send(job, signal());
    expect(outcome).toMatchObject({ kind: 'delivered', status: 200 });
    expect(api.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(api.requests[0]!.body.toString('utf8'))).toEqual({
      fields: {
        project: { key: 'SOC' },
        summary: hostile.title,
        description: `Host ${hostile.host}`,
        labels: ['switchyard', 'incident.created'],
        long: hostile.long,
        count: 3,
        urgent: true,
        parent: null,
      },
      ref: 'evt_01TEST/dlv_1',
    });
  });

  it('sends a raw text body with its own content type', async () => {
    const api = await receiver();
    const template = compileTemplate('ALERT {{ data.severity | upcase }}: {{ data.title }}\n');
    const spec = { url: api.url, body: { kind: 'text' as const, template, contentType: 'text/plain; charset=utf-8' } };
    await target(spec).send(makeJob(), signal());
    expect(api.requests[0]?.body.toString('utf8')).toBe('ALERT CRITICAL: Ransomware on host-7\n');
    expect(api.requests[0]?.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('a template that fails to render is permanent, with a clear message, and nothing is sent', async () => {
    const api = await receiver();
    const tree = compileTemplateTree({ spam: '{% for i in (1..100000000) %}x{% endfor %}' });
    const outcome = await target({ url: api.url, body: { kind: 'json', tree } }).send(makeJob(), signal());
    expect(outcome).toMatchObject({ kind: 'permanent' });
    expect(outcome.kind === 'permanent' && outcome.error).toMatch(/^the request could not be built: template/);
    expect(api.requests).toHaveLength(0);
  });
});

describe('HTTP target: headers', () => {
  it('sends method, static headers, bearer auth and the delivery id as Idempotency-Key', async () => {
    const api = await receiver();
    const spec = {
      url: `${api.url}/api/issues`,
      method: 'PUT' as const,
      headers: { 'X-Source': 'switchyard', Accept: 'application/json' },
      auth: { kind: 'bearer' as const, token: 'tok-123' },
    };
    await target(spec).send(makeJob(undefined, { deliveryId: 'dlv_77' }), signal());
    const request = api.requests[0]!;
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/api/issues');
    expect(request.headers).toMatchObject({
      'x-source': 'switchyard',
      accept: 'application/json',
      authorization: 'Bearer tok-123',
      'idempotency-key': 'dlv_77',
      'user-agent': 'switchyard',
    });
  });

  it('sends basic auth', async () => {
    const api = await receiver();
    await target({ url: api.url, auth: { kind: 'basic', username: 'svc', password: 'p:ss é' } }).send(
      makeJob(),
      signal(),
    );
    const header = api.requests[0]?.headers.authorization ?? '';
    expect(header.startsWith('Basic ')).toBe(true);
    expect(Buffer.from(header.slice(6), 'base64').toString('utf8')).toBe('svc:p:ss é');
  });

  it('sends the same Idempotency-Key on every attempt of a delivery', async () => {
    const api = await receiver();
    api.script({ status: 503 });
    const http = target({ url: api.url });
    await http.send({ ...makeJob(undefined, { deliveryId: 'dlv_9' }), attempt: 1 }, signal());
    await http.send({ ...makeJob(undefined, { deliveryId: 'dlv_9' }), attempt: 2 }, signal());
    expect(api.requests.map((request) => request.headers['idempotency-key'])).toEqual(['dlv_9', 'dlv_9']);
  });

  it("sends the job's idempotency key, which differs from the delivery id after a delivered delivery's replay", async () => {
    const api = await receiver();
    await target({ url: api.url }).send(
      { ...makeJob(undefined, { deliveryId: 'dlv_9' }), idempotencyKey: 'dlv_9.r1' },
      signal(),
    );
    expect(api.requests[0]?.headers['idempotency-key']).toBe('dlv_9.r1');
  });

  it('signs the exact bytes sent with HMAC-SHA256 when a signing secret is set', async () => {
    const api = await receiver();
    const tree = compileTemplateTree({ summary: '{{ data.title }}' });
    await target({ url: api.url, body: { kind: 'json', tree }, signingSecret: 'out-secret' }).send(makeJob(), signal());
    const request = api.requests[0]!;
    const expected = `sha256=${createHmac('sha256', 'out-secret').update(request.body).digest('hex')}`;
    expect(request.headers['x-switchyard-signature']).toBe(expected);
  });

  it('sends no signature without a secret', async () => {
    const api = await receiver();
    await target({ url: api.url }).send(makeJob(), signal());
    expect(api.requests[0]?.headers['x-switchyard-signature']).toBeUndefined();
  });
});

describe('HTTP target: outcomes', () => {
  it.each([
    [
      { status: 201, body: '{"key":"SOC-1"}' },
      { kind: 'delivered', status: 201, detail: '{"key":"SOC-1"}' },
    ],
    [{ status: 204 }, { kind: 'delivered', status: 204 }],
    [
      { status: 400, body: '{"errors":{"summary":"required"}}' },
      { kind: 'permanent', status: 400 },
    ],
    [{ status: 401 }, { kind: 'permanent', status: 401 }],
    [
      { status: 301, headers: { location: 'http://127.0.0.1:9/' } },
      { kind: 'permanent', status: 301 },
    ],
    [{ status: 408 }, { kind: 'retry', status: 408 }],
    [{ status: 500 }, { kind: 'retry', status: 500 }],
    [
      { status: 503, headers: { 'retry-after': '120' } },
      { kind: 'retry', status: 503, retryAfterMs: 120_000 },
    ],
    [
      { status: 429, headers: { 'retry-after': '30' } },
      { kind: 'retry', status: 429, retryAfterMs: 30_000 },
    ],
  ])('answer %j is %j', async (answer, expected) => {
    const api = await receiver();
    api.script(answer);
    expect(await target({ url: api.url }).send(makeJob(), signal())).toMatchObject(expected);
  });

  it('reads Retry-After as an HTTP date', async () => {
    const api = await receiver();
    api.script({ status: 429, headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } });
    const outcome = await target({ url: api.url }).send(makeJob(), signal());
    expect(outcome).toMatchObject({ kind: 'retry', status: 429 });
    const delay = outcome.kind === 'retry' ? (outcome.retryAfterMs ?? -1) : -1;
    expect(delay).toBeGreaterThan(50_000); // a second of rounding in the date, plus the time the test takes
    expect(delay).toBeLessThanOrEqual(60_000);
  });

  it('keeps an excerpt of an error answer', async () => {
    const api = await receiver();
    api.script({ status: 400, body: '{"errorMessages":[],\n  "errors":{"project":"project is required"}}' });
    expect(await target({ url: api.url }).send(makeJob(), signal())).toEqual({
      kind: 'permanent',
      status: 400,
      error: 'HTTP 400: {"errorMessages":[], "errors":{"project":"project is required"}}',
    });
  });

  it('a response slower than the timeout is retried', async () => {
    const api = await receiver();
    api.script({ delayMs: 1_500 });
    const spec = { url: api.url, policy: { ...TEST_POLICY, timeoutMs: 200 } };
    expect(await target(spec).send(makeJob(), signal())).toEqual({ kind: 'retry', error: 'no answer within 200 ms' });
  });

  it('a refused connection is retried', async () => {
    const api = await receiver();
    await api.close();
    expect(await target({ url: api.url }).send(makeJob(), signal())).toEqual({
      kind: 'retry',
      error: 'connection refused (ECONNREFUSED)',
    });
  });

  it('an attempt aborted at shutdown is retried', async () => {
    const api = await receiver();
    api.script({ delayMs: 1_500 });
    const controller = new AbortController();
    const sending = target({ url: api.url }).send(makeJob(), controller.signal);
    await api.waitForRequests(1);
    controller.abort();
    expect(await sending).toMatchObject({ kind: 'retry', error: expect.stringContaining('cancelled') });
  });

  it('reuses one keep-alive connection', async () => {
    const api = await receiver();
    const http = target({ url: api.url });
    await http.send(makeJob(), signal());
    await http.send(makeJob(), signal());
    expect(api.requests.map((request) => request.connection)).toEqual([1, 1]);
  });

  it('never puts the URL query, URL credentials or header secrets into outcomes', async () => {
    const api = await receiver();
    api.script({ status: 500 }, { status: 302, headers: { location: '/x' } });
    const spec = {
      url: `http://user:url-pass@127.0.0.1:${api.port}/hook?token=query-secret`,
      headers: { 'X-Api-Key': 'header-secret' },
      auth: { kind: 'bearer' as const, token: 'bearer-secret' },
    };
    const http = target(spec);
    const outcomes = [await http.send(makeJob(), signal()), await http.send(makeJob(), signal())];
    await api.close();
    outcomes.push(await http.send(makeJob(), signal()));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['retry', 'permanent', 'retry']);
    expect(JSON.stringify(outcomes)).not.toMatch(/url-pass|query-secret|header-secret|bearer-secret|hook/);
  });
});

describe('HTTP target: link-local guard', () => {
  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/'])(
    'refuses %s: permanent, with a clear message',
    async (url) => {
      expect(await target({ url }).send(makeJob(), signal())).toEqual({
        kind: 'permanent',
        error: expect.stringMatching(
          /^refused to connect to .+: link-local or cloud-metadata address; set allow_link_local/,
        ),
      });
    },
  );

  it('refuses a host name that resolves to the metadata address, and sends nothing', async () => {
    const api = await receiver();
    const outcome = await target({ url: `http://tickets.internal:${api.port}/api` }, resolvesToMetadata).send(
      makeJob(),
      signal(),
    );
    expect(outcome).toEqual({
      kind: 'permanent',
      error:
        'refused to connect to 169.254.169.254 (resolved from tickets.internal): link-local or cloud-metadata ' +
        'address; set allow_link_local: true on the target if this is intended',
    });
    expect(api.requests).toHaveLength(0);
  });

  it('an invalid URL is permanent', async () => {
    expect(await target({ url: 'not a url' }).send(makeJob(), signal())).toEqual({
      kind: 'permanent',
      error: 'the target URL is not a valid URL',
    });
  });

  it('close is idempotent', async () => {
    const http = target({});
    await http.close();
    await http.close();
  });
});
