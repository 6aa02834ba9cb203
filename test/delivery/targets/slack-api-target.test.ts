import { describe, expect, it } from 'vitest';
import type { DeliveryJob } from '../../../src/delivery/target.js';
import { createSlackApiTarget } from '../../../src/delivery/targets/slack-api-target.js';
import { startHttpReceiver } from '../../helpers/start-http-receiver.js';
import {
  BOT_TOKEN,
  RATE_LIMITED,
  startSlackApiStandIn,
  type SlackApiStandIn,
} from '../../helpers/start-slack-api-stand-in.js';
import { makeJob, makeSlackSpec } from './make-target-spec.js';
import { resolvesToMetadata, signal, useHttpTargets } from './use-http-targets.js';

const { receiver, target } = useHttpTargets(createSlackApiTarget, makeSlackSpec);
const slack = (): Promise<SlackApiStandIn> => receiver(startSlackApiStandIn) as Promise<SlackApiStandIn>;
const api = (stand: { url: string }, overrides: Parameters<typeof target>[0] = {}) =>
  target({ webhookUrl: null, token: BOT_TOKEN, channel: '#soc-alerts', baseUrl: `${stand.url}/api/`, ...overrides });

function event(kind: string, severity: string | null, references: Record<string, string> | null): DeliveryJob {
  const data = { incident_id: 'inc_9', title: `Ransomware ${kind}`, ...(severity === null ? {} : { severity }) };
  return { ...makeJob({ event: kind, timestamp: '2026-11-22T10:00:00Z', data }), references };
}

/** What the engine does with references between deliveries of one key (references-to-record.ts). */
function remember(references: Record<string, string> | null, outcome: { kind: string; captured?: object }) {
  return outcome.kind === 'delivered' ? { ...references, ...(outcome.captured as Record<string, string>) } : references;
}

describe('Slack Web API target', () => {
  it('posts the parent, replies in its thread, broadcasts a raised severity, and edits the parent on resolve', async () => {
    const stand = await slack();
    const chat = api(stand);
    const created = await chat.send(event('incident.created', 'low', null), signal());
    expect(created).toEqual({
      kind: 'delivered',
      status: 200,
      detail: 'ok (chat.postMessage)',
      captured: { ts: stand.messages[0]?.ts, channel: 'C0SOCALERT', severity: 'low' },
    });
    let refs = remember(null, created);
    const quiet = await chat.send(event('incident.updated', 'medium', refs), signal());
    expect(quiet).toMatchObject({ kind: 'delivered', captured: { severity: 'medium' } });
    expect(quiet.kind === 'delivered' && quiet.captured?.['ts']).toBe(undefined);
    refs = remember(refs, quiet);
    refs = remember(refs, await chat.send(event('incident.updated', 'critical', refs), signal()));
    refs = remember(refs, await chat.send(event('incident.updated', 'critical', refs), signal()));
    const resolved = await chat.send(event('incident.resolved', null, refs), signal());
    expect(resolved).toMatchObject({ kind: 'delivered', detail: 'ok (chat.update, chat.postMessage)' });

    const parent = stand.messages[0];
    expect(stand.messages.filter((m) => m.threadTs === undefined)).toEqual([parent]);
    expect(stand.replies(parent?.ts ?? '').map((m) => [m.text, m.broadcast])).toEqual([
      [':large_orange_circle: Ransomware incident.updated', false],
      [':rotating_light: Ransomware incident.updated', true],
      [':rotating_light: Ransomware incident.updated', false],
      [':white_check_mark: Ransomware incident.resolved', false],
    ]);
    expect(parent).toMatchObject({ edits: 1, text: ':white_check_mark: Ransomware incident.resolved' });
    expect(parent?.attachments).toEqual([expect.objectContaining({ color: '#2EB67D' })]);
    expect(stand.requests.map((r) => r.url)).toEqual([
      ...Array<string>(4).fill('/api/chat.postMessage'),
      '/api/chat.update',
      '/api/chat.postMessage',
    ]);
    for (const request of stand.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
      expect(request.body.toString('utf8')).not.toContain(BOT_TOKEN);
    }
  });

  it('a parent deleted in Slack: the update starts a new thread, and a resolve is posted alone', async () => {
    const stand = await slack();
    const chat = api(stand);
    const refs = remember(null, await chat.send(event('incident.created', 'high', null), signal()));
    stand.remove(refs?.['ts'] ?? '');
    const updated = await chat.send(event('incident.updated', 'high', refs), signal());
    const fresh = stand.messages[0];
    expect(fresh).toMatchObject({ threadTs: undefined, text: ':red_circle: Ransomware incident.updated' });
    expect(updated).toMatchObject({ kind: 'delivered', captured: { ts: fresh?.ts, channel: 'C0SOCALERT' } });
    stand.remove(fresh?.ts ?? '');
    const resolved = await chat.send(event('incident.resolved', null, remember(refs, updated)), signal());
    expect(resolved).toMatchObject({ kind: 'delivered', detail: 'ok (chat.postMessage)' });
    expect(stand.messages).toEqual([expect.objectContaining({ threadTs: undefined, edits: 0 })]);
  });

  it('ratelimited (429 with Retry-After) is retried as rate limiting after the pause Slack asks for', async () => {
    const stand = await slack();
    stand.script(RATE_LIMITED(30));
    const chat = api(stand);
    expect(await chat.send(event('incident.created', 'low', null), signal())).toEqual({
      kind: 'retry',
      status: 429,
      error: 'Slack answered ratelimited (Slack is rate limiting this app)',
      retryAfterMs: 30_000,
      rateLimited: true,
    });
    expect(stand.requests).toHaveLength(1);
    expect(await chat.send(event('incident.created', 'low', null), signal())).toMatchObject({ kind: 'delivered' });
  });

  it.each([
    ['a wrong token', { token: 'xoxb-wrong-token-0000' }, 'invalid_auth (the token is not valid'],
    ['an unknown channel', { channel: '#nope' }, 'channel_not_found (the channel does not exist'],
    ['a channel the bot is not in', { channel: '#private-ir' }, 'not_in_channel (the bot is not in the channel'],
  ])('%s is permanent, with what to fix and never the token', async (_name, overrides, reason) => {
    const stand = await slack();
    const outcome = await api(stand, overrides).send(event('incident.created', 'low', null), signal());
    expect(outcome).toMatchObject({ kind: 'permanent', status: 200 });
    expect(outcome.kind !== 'delivered' && outcome.error).toContain(`Slack answered ${reason}`);
    expect(JSON.stringify(outcome)).not.toContain('xoxb-');
  });

  it('5xx and Slack-side errors are retried; a missing scope is permanent', async () => {
    const stand = await slack();
    stand.script(
      { status: 503, body: 'upstream unavailable' },
      { status: 200, body: '{"ok":false,"error":"internal_error"}' },
      { status: 200, body: '{"ok":false,"error":"missing_scope","needed":"chat:write"}' },
    );
    const chat = api(stand);
    const job = event('incident.created', 'low', null);
    expect(await chat.send(job, signal())).toMatchObject({ kind: 'retry', status: 503 });
    expect(await chat.send(job, signal())).toMatchObject({
      kind: 'retry',
      error: expect.stringContaining('internal_error'),
    });
    expect(await chat.send(job, signal())).toMatchObject({
      kind: 'permanent',
      error: expect.stringContaining('chat:write'),
    });
  });

  it('a refused connection is retried, and the address guard refuses the metadata address', async () => {
    const closed = await startHttpReceiver();
    const url = closed.url;
    await closed.close();
    expect(await api({ url }).send(event('incident.created', 'low', null), signal())).toMatchObject({ kind: 'retry' });
    const guarded = target(
      { webhookUrl: null, token: BOT_TOKEN, channel: '#soc-alerts', baseUrl: 'http://slack.example/api/' },
      resolvesToMetadata,
    );
    const outcome = await guarded.send(event('incident.created', 'low', null), signal());
    expect(outcome).toMatchObject({ kind: 'permanent' });
    expect(JSON.stringify(outcome)).not.toContain(BOT_TOKEN);
  });
});
