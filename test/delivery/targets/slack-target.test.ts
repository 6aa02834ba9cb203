import { describe, expect, it } from 'vitest';
import { createSlackTarget } from '../../../src/delivery/targets/slack-target.js';
import { compileTemplateTree } from '../../../src/templates/compile-template-tree.js';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/start-http-receiver.js';
import { startSlackStandIn } from '../../helpers/start-slack-stand-in.js';
import { makeJob, makeSlackSpec, TEST_POLICY } from './make-target-spec.js';
import { resolvesToMetadata, signal, useHttpTargets } from './use-http-targets.js';

const HOOK_PATH = '/services/T0001/B0001/hook-secret-xyz';

const { receiver, target } = useHttpTargets(createSlackTarget, makeSlackSpec);

/** Answers like hooks.slack.com: `ok` as text/html on success, a bare error string otherwise. */
const slack = (): Promise<HttpReceiver> =>
  receiver(() => startHttpReceiver({ default: { status: 200, body: 'ok', headers: { 'content-type': 'text/html' } } }));
const posted = (receiver: HttpReceiver, index = 0) =>
  JSON.parse(receiver.requests[index]!.body.toString('utf8')) as Record<string, unknown>;

describe('Slack target', () => {
  it('posts the default message as JSON, with channel, username and icon from the target', async () => {
    const hook = await slack();
    const spec = { webhookUrl: hook.url + HOOK_PATH, channel: '#soc', username: 'Switchyard', iconEmoji: ':shield:' };
    expect(await target(spec).send(makeJob(), signal())).toEqual({ kind: 'delivered', status: 200, detail: 'ok' });
    const request = hook.requests[0]!;
    expect(request).toMatchObject({ method: 'POST', url: HOOK_PATH });
    expect(request.headers['content-type']).toBe('application/json');
    const message = posted(hook);
    expect(message).toMatchObject({ channel: '#soc', username: 'Switchyard', icon_emoji: ':shield:' });
    expect(message.text).toBe(':rotating_light: Ransomware on host-7');
    expect(JSON.stringify(message.attachments)).toContain('inc_123');
  });

  it('renders the target message template, escaped for Slack', async () => {
    const hook = await slack();
    const message = compileTemplateTree({ text: '*{{ data.title }}* ({{ event }})', unfurl_links: false }, 'slack');
    const job = makeJob({ event: 'threat.detected', timestamp: 't', data: { title: '<!channel> a & b' } });
    await target({ webhookUrl: hook.url + HOOK_PATH, message, channel: '#soc' }).send(job, signal());
    expect(posted(hook)).toEqual({
      channel: '#soc',
      text: '*&lt;!channel&gt; a &amp; b* (threat.detected)',
      unfurl_links: false,
    });
  });

  it('a message template that fails to render is permanent and nothing is posted', async () => {
    const hook = await slack();
    const message = compileTemplateTree({ text: '{% for i in (1..100000000) %}x{% endfor %}' }, 'slack');
    const outcome = await target({ webhookUrl: hook.url + HOOK_PATH, message }).send(makeJob(), signal());
    expect(outcome).toMatchObject({
      kind: 'permanent',
      error: expect.stringMatching(/^the Slack message could not be built/),
    });
    expect(hook.requests).toHaveLength(0);
  });

  it('a message template that is not an object is permanent', async () => {
    const hook = await slack();
    const message = compileTemplateTree('just text', 'slack');
    expect(await target({ webhookUrl: hook.url + HOOK_PATH, message }).send(makeJob(), signal())).toMatchObject({
      kind: 'permanent',
      error: expect.stringContaining('must produce an object'),
    });
  });

  // https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks
  it.each([
    [400, 'invalid_payload', 'permanent'],
    [400, 'no_text', 'permanent'],
    [403, 'invalid_token', 'permanent'],
    [403, 'action_prohibited', 'permanent'],
    [404, 'channel_not_found', 'permanent'],
    [404, 'no_service', 'permanent'],
    [410, 'channel_is_archived', 'permanent'],
    [500, 'rollup_error', 'retry'],
    [502, '<html>Bad Gateway</html>', 'retry'],
  ])('Slack answering %i %s is %s', async (status, body, kind) => {
    const hook = await slack();
    hook.script({ status, body });
    const outcome = await target({ webhookUrl: hook.url + HOOK_PATH }).send(makeJob(), signal());
    expect(outcome).toMatchObject({ kind, status, error: expect.stringContaining(`Slack answered HTTP ${status}`) });
    expect(JSON.stringify(outcome)).not.toContain('hook-secret-xyz');
  });

  it('429 is retried after Retry-After (seconds or HTTP date)', async () => {
    const hook = await slack();
    hook.script(
      { status: 429, headers: { 'retry-after': '7' }, body: 'rate_limited' },
      { status: 429, headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } },
    );
    const slackTarget = target({ webhookUrl: hook.url + HOOK_PATH });
    expect(await slackTarget.send(makeJob(), signal())).toMatchObject({
      kind: 'retry',
      status: 429,
      retryAfterMs: 7_000,
    });
    const second = await slackTarget.send(makeJob(), signal());
    expect(second.kind === 'retry' && second.retryAfterMs).toBeGreaterThan(50_000);
  });

  it('makes exactly one request per attempt (the library does not retry)', async () => {
    const hook = await slack();
    hook.script({ status: 500, body: 'rollup_error' });
    await target({ webhookUrl: hook.url + HOOK_PATH }).send(makeJob(), signal());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hook.requests).toHaveLength(1);
  });

  it('a slow answer past the timeout is retried', async () => {
    const hook = await slack();
    hook.script({ delayMs: 1_500 });
    const spec = { webhookUrl: hook.url + HOOK_PATH, policy: { ...TEST_POLICY, timeoutMs: 200 } };
    expect(await target(spec).send(makeJob(), signal())).toEqual({ kind: 'retry', error: 'no answer within 200 ms' });
  });

  it('a refused connection is retried, without the webhook URL in the message', async () => {
    const hook = await slack();
    await hook.close();
    const outcome = await target({ webhookUrl: hook.url + HOOK_PATH }).send(makeJob(), signal());
    expect(outcome).toEqual({ kind: 'retry', error: 'connection refused (ECONNREFUSED)' });
  });

  it('reuses one keep-alive connection', async () => {
    const hook = await slack();
    const slackTarget = target({ webhookUrl: hook.url + HOOK_PATH });
    await slackTarget.send(makeJob(), signal());
    await slackTarget.send(makeJob(), signal());
    expect(hook.requests.map((request) => request.connection)).toEqual([1, 1]);
  });

  it('refuses a webhook host that resolves to the metadata address', async () => {
    const hook = await slack();
    const spec = { webhookUrl: `http://hooks.slack.internal:${hook.port}${HOOK_PATH}` };
    expect(await target(spec, resolvesToMetadata).send(makeJob(), signal())).toMatchObject({
      kind: 'permanent',
      error: expect.stringContaining('refused to connect to 169.254.169.254'),
    });
    expect(hook.requests).toHaveLength(0);
  });

  it('an invalid webhook URL is permanent', async () => {
    expect(await target({ webhookUrl: 'hooks.slack.com/services/x' }).send(makeJob(), signal())).toEqual({
      kind: 'permanent',
      error: 'the webhook URL is not a valid URL',
    });
  });
});

/** Every event string in a place Slack limits: the text, a header, section text and fields, a context line. */
const CUSTOM_MESSAGE = {
  text: '{{ data.title }}',
  blocks: [
    { type: 'header', text: { type: 'plain_text', text: '{{ data.title }}' } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: '*{{ data.title }}*\n{{ data.description }}' },
      fields: [
        { type: 'mrkdwn', text: '*Host*\n{{ data.hostname }}' },
        { type: 'mrkdwn', text: '*Details*\n{{ data.description }}' },
      ],
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: '{{ data.description }}' }] },
  ],
};

const job = (data: Record<string, unknown>) =>
  makeJob({ event: 'threat.detected', timestamp: '2026-11-22T10:00:00Z', data: { hostname: 'web-1', ...data } });

describe('Slack target and Slack length limits (a stand-in that checks them)', () => {
  const slackChecking = (): Promise<HttpReceiver> => receiver(startSlackStandIn);

  it('the stand-in refuses what Slack refuses: a section text over 3,000 characters is invalid_blocks', async () => {
    const hook = await slackChecking();
    const message = { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3_001) } }] };
    const answer = await fetch(hook.url + HOOK_PATH, { method: 'POST', body: JSON.stringify(message) });
    expect([answer.status, await answer.text()]).toEqual([400, 'invalid_blocks']);
  });

  it.each([
    ['a 3,500-character title', { title: 'T'.repeat(3_500) }],
    ['1,000 `<` characters (4,000 once escaped)', { title: '<'.repeat(1_000), description: '<'.repeat(1_000) }],
    ['a 45 KB description', { title: 'Beacon', description: 'd'.repeat(45_000) }],
  ])('a custom message with %s is delivered, clipped with an ellipsis', async (_name, data) => {
    const hook = await slackChecking();
    const message = compileTemplateTree(CUSTOM_MESSAGE, 'slack');
    const outcome = await target({ webhookUrl: hook.url + HOOK_PATH, message }).send(job(data), signal());
    expect(outcome).toEqual({ kind: 'delivered', status: 200, detail: 'ok' });
    const posted = JSON.parse(hook.requests[0]!.body.toString('utf8')) as {
      blocks: [{ text: { text: string } }, { text: { text: string }; fields: { text: string }[] }];
    };
    const [header, section] = posted.blocks;
    expect(header.text.text.length).toBeLessThanOrEqual(150);
    expect(section.text.text.length).toBeLessThanOrEqual(3_000);
    expect(section.text.text.endsWith('…')).toBe(true);
    expect(section.fields[0]!.text).toBe('*Host*\nweb-1');
    // Cut between escapes, never inside one.
    expect(section.text.text).not.toMatch(/&(l|lt|g|gt|a|am|amp)?…$/);
  });

  it('the default card with the same long values is delivered too', async () => {
    const hook = await slackChecking();
    const data = { title: '<'.repeat(1_000), hostname: 'h'.repeat(45_000), incident_id: 'i'.repeat(3_500) };
    const outcome = await target({ webhookUrl: hook.url + HOOK_PATH }).send(job(data), signal());
    expect(outcome).toMatchObject({ kind: 'delivered' });
  });
});
