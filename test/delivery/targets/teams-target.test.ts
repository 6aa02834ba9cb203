import { describe, expect, it } from 'vitest';
import { createTeamsTarget } from '../../../src/delivery/targets/teams-target.js';
import { compileTemplateTree } from '../../../src/templates/compile-template-tree.js';
import type { HttpReceiver } from '../../helpers/start-http-receiver.js';
import { startTeamsStandIn } from '../../helpers/start-teams-stand-in.js';
import { makeJob, makeTeamsSpec, TEAMS_HOOK_PATH, TEST_POLICY } from './make-target-spec.js';
import { resolvesToMetadata, signal, useHttpTargets } from './use-http-targets.js';

const { receiver, target } = useHttpTargets(createTeamsTarget, makeTeamsSpec);
const teams = (): Promise<HttpReceiver> => receiver(startTeamsStandIn);

interface Posted {
  type: string;
  attachments: { contentType: string; contentUrl: null; content: { type: string; body: Record<string, unknown>[] } }[];
}
const posted = (hook: HttpReceiver, index = 0) => JSON.parse(hook.requests[index]!.body.toString('utf8')) as Posted;
const cardOf = (hook: HttpReceiver, index = 0) => posted(hook, index).attachments[0]!.content;
const headlineOf = (hook: HttpReceiver) => (cardOf(hook).body[0] as { items: [{ text: string }] }).items[0].text;
/** What Teams shows of escaped Markdown: each backslash escape is the character after it. */
const shown = (escaped: string) => escaped.replace(/\\([!-/:-@[-`{-~])/g, '$1');

const job = (data: Record<string, unknown>) =>
  makeJob({ event: 'threat.detected', timestamp: '2026-11-22T10:00:00Z', data: { hostname: 'web-1', ...data } });

describe('Teams target (a stand-in that answers like a Workflows webhook)', () => {
  it('posts the default card as a message with one Adaptive Card attachment, and 202 is delivered', async () => {
    const hook = await teams();
    const outcome = await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH }).send(makeJob(), signal());
    expect(outcome).toEqual({ kind: 'delivered', status: 202, detail: undefined });
    const request = hook.requests[0]!;
    expect(request).toMatchObject({ method: 'POST', url: TEAMS_HOOK_PATH });
    expect(request.headers['content-type']).toBe('application/json');
    const payload = posted(hook);
    expect(payload).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null }],
    });
    expect(payload.attachments).toHaveLength(1);
    expect(cardOf(hook)).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(headlineOf(hook)).toBe('🚨 Ransomware on host-7');
    expect(JSON.stringify(cardOf(hook))).toContain('inc\\\\_123');
  });

  it('a hostile title arrives as literal text: no link, no formatting, no mention', async () => {
    const hook = await teams();
    const title = '[click](http://evil) <at>x</at> **bold**';
    await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH }).send(job({ title, severity: 'high' }), signal());
    const headline = headlineOf(hook);
    expect(headline).toBe('🔴 \\[click\\]\\(http://evil\\) \\<at\\>x\\</at\\> \\*\\*bold\\*\\*');
    expect(shown(headline)).toBe(`🔴 ${title}`);
  });

  it('renders a message template as the card, its inserted values escaped for Teams', async () => {
    const hook = await teams();
    const message = compileTemplateTree(
      {
        type: 'AdaptiveCard',
        body: [{ type: 'TextBlock', text: '**{{ data.title }}** on {{ data.hostname }}', wrap: true }],
        actions: [{ type: 'Action.OpenUrl', title: 'Open', url: 'https://console.example/{{ data.id | raw }}' }],
      },
      'teams',
    );
    const hostile = job({ title: '<at>all</at> [x](http://evil)', id: 'a_b' });
    expect(await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH, message }).send(hostile, signal())).toMatchObject({
      kind: 'delivered',
    });
    expect(cardOf(hook)).toEqual({
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body: [{ type: 'TextBlock', text: '**\\<at\\>all\\</at\\> \\[x\\]\\(http://evil\\)** on web-1', wrap: true }],
      actions: [{ type: 'Action.OpenUrl', title: 'Open', url: 'https://console.example/a_b' }],
    });
  });

  it('sends a `type: message` template as the whole payload', async () => {
    const hook = await teams();
    const card = { type: 'AdaptiveCard', version: '1.5', body: [{ type: 'TextBlock', text: '{{ event }}' }] };
    const message = compileTemplateTree(
      {
        type: 'message',
        attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
      },
      'teams',
    );
    await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH, message }).send(job({}), signal());
    expect(cardOf(hook)).toEqual({
      type: 'AdaptiveCard',
      version: '1.5',
      body: [{ type: 'TextBlock', text: 'threat.detected' }],
    });
  });

  it('a payload the workflow refuses (400, its error JSON) is permanent, without the webhook URL', async () => {
    const hook = await teams();
    const message = compileTemplateTree(
      { type: 'message', attachments: [{ contentType: 'application/json', content: { text: 'x' } }] },
      'teams',
    );
    const outcome = await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH, message }).send(job({}), signal());
    expect(outcome).toMatchObject({
      kind: 'permanent',
      status: 400,
      error: expect.stringMatching(/^Teams answered HTTP 400: TriggerInputSchemaMismatch: .*contentType/),
    });
    expect(JSON.stringify(outcome)).not.toContain('teams-sig-secret');
  });

  it.each([
    [401, 'DirectApiInvalidAuthorizationSignature', 'permanent'],
    [403, 'AuthorizationFailed', 'permanent'],
    [404, 'WorkflowNotFound', 'permanent'],
    [500, 'InternalServerError', 'retry'],
    [502, 'BadGateway', 'retry'],
    [503, 'ServiceUnavailable', 'retry'],
  ])('the workflow answering %i %s is %s', async (status, code, kind) => {
    const hook = await teams();
    hook.script({ status, body: JSON.stringify({ error: { code, message: 'm' } }) });
    const outcome = await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH }).send(makeJob(), signal());
    expect(outcome).toMatchObject({ kind, status, error: expect.stringContaining(`HTTP ${status}: ${code}: m`) });
    expect(JSON.stringify(outcome)).not.toContain('teams-sig-secret');
  });

  it('429 is rate limiting, retried after Retry-After (seconds or HTTP date)', async () => {
    const hook = await teams();
    const throttled = JSON.stringify({ error: { code: 'TooManyRequests', message: 'Rate limit is exceeded.' } });
    hook.script(
      { status: 429, headers: { 'retry-after': '7' }, body: throttled },
      { status: 429, headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }, body: throttled },
    );
    const teamsTarget = target({ webhookUrl: hook.url + TEAMS_HOOK_PATH });
    expect(await teamsTarget.send(makeJob(), signal())).toMatchObject({
      kind: 'retry',
      status: 429,
      rateLimited: true,
      retryAfterMs: 7_000,
    });
    const second = await teamsTarget.send(makeJob(), signal());
    expect(second.kind === 'retry' && second.retryAfterMs).toBeGreaterThan(50_000);
  });

  it('a message template that fails to render is permanent and nothing is posted', async () => {
    const hook = await teams();
    const message = compileTemplateTree(
      { type: 'AdaptiveCard', body: [{ type: 'TextBlock', text: '{% for i in (1..100000000) %}x{% endfor %}' }] },
      'teams',
    );
    const outcome = await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH, message }).send(makeJob(), signal());
    expect(outcome).toMatchObject({
      kind: 'permanent',
      error: expect.stringMatching(/^the Teams message could not be built/),
    });
    expect(hook.requests).toHaveLength(0);
  });

  it('a slow answer past the timeout and a refused connection are retried', async () => {
    const hook = await teams();
    hook.script({ delayMs: 1_500 });
    const slow = { webhookUrl: hook.url + TEAMS_HOOK_PATH, policy: { ...TEST_POLICY, timeoutMs: 200 } };
    expect(await target(slow).send(makeJob(), signal())).toEqual({ kind: 'retry', error: 'no answer within 200 ms' });
    await hook.close();
    expect(await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH }).send(makeJob(), signal())).toEqual({
      kind: 'retry',
      error: 'connection refused (ECONNREFUSED)',
    });
  });

  it('refuses a webhook host that resolves to the metadata address, and an invalid URL', async () => {
    const hook = await teams();
    const spec = { webhookUrl: `http://prod-1.westeurope.logic.azure.internal:${hook.port}${TEAMS_HOOK_PATH}` };
    expect(await target(spec, resolvesToMetadata).send(makeJob(), signal())).toMatchObject({
      kind: 'permanent',
      error: expect.stringContaining('refused to connect to 169.254.169.254'),
    });
    expect(hook.requests).toHaveLength(0);
    expect(await target({ webhookUrl: 'logic.azure.com/workflows/x' }).send(makeJob(), signal())).toEqual({
      kind: 'permanent',
      error: 'the webhook URL is not a valid URL',
    });
  });
});

describe('Teams target and the 28 KB message limit', () => {
  it('the stand-in refuses what Teams refuses: a message over 28 KB', async () => {
    const hook = await teams();
    const card = { type: 'AdaptiveCard', body: [{ type: 'TextBlock', text: 'd'.repeat(30_000) }] };
    const body = JSON.stringify({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: card }],
    });
    const answer = await fetch(hook.url + TEAMS_HOOK_PATH, { method: 'POST', body });
    expect(answer.status).toBe(413);
  });

  const CUSTOM = {
    type: 'AdaptiveCard',
    body: [
      { type: 'TextBlock', text: '{{ data.title }}', weight: 'Bolder', wrap: true },
      { type: 'TextBlock', text: '{{ data.description }}', wrap: true },
      {
        type: 'FactSet',
        facts: [
          { title: 'Host', value: '{{ data.hostname }}' },
          { title: 'Details', value: '{{ data.description }}' },
        ],
      },
      { type: 'TextBlock', text: '{{ data.description }}', isSubtle: true, wrap: true },
    ],
  };

  it.each([
    ['a 45 KB description', { title: 'Beacon', description: 'd'.repeat(45_000) }],
    ['45,000 `*` (90,000 characters once escaped)', { title: '*'.repeat(3_000), description: '*'.repeat(45_000) }],
    ['45 KB of 4-byte emoji', { title: 'Beacon', description: '😀'.repeat(45_000) }],
  ])('a custom card with %s is delivered, clipped with an ellipsis', async (_name, data) => {
    const hook = await teams();
    const message = compileTemplateTree(CUSTOM, 'teams');
    const outcome = await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH, message }).send(job(data), signal());
    expect(outcome).toEqual({ kind: 'delivered', status: 202, detail: undefined });
    expect(hook.requests[0]!.body.length).toBeLessThanOrEqual(24_000);
    const [, description, facts] = cardOf(hook).body as [unknown, { text: string }, { facts: { value: string }[] }];
    expect(description.text.endsWith('…')).toBe(true);
    expect(description.text).not.toMatch(/(?<!\\)(\\\\)*\\…$/); // the ellipsis is not escaped
    expect(facts.facts[0]?.value).toBe('web-1');
  });

  it('the default card with the same long values is delivered too', async () => {
    const hook = await teams();
    const data = { title: '['.repeat(45_000), hostname: 'h'.repeat(45_000), incident_id: '<'.repeat(45_000) };
    const outcome = await target({ webhookUrl: hook.url + TEAMS_HOOK_PATH }).send(job(data), signal());
    expect(outcome).toMatchObject({ kind: 'delivered' });
  });
});
