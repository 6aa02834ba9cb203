import { describe, expect, it } from 'vitest';
import type { DeliveryJob } from '../../../src/delivery/target.js';
import { buildSlackApiCalls, slackThreadOf } from '../../../src/delivery/targets/build-slack-api-calls.js';
import { compileTemplateTree } from '../../../src/templates/compile-template-tree.js';
import { makeJob, makeSlackSpec } from './make-target-spec.js';

const spec = makeSlackSpec({ webhookUrl: null, token: 'xoxb-t', channel: '#soc-alerts' });
const THREAD = { ts: '1764000001.000100', channel: 'C0SOCALERT', severity: 'low' };

function job(kind: string, severity: string | null, references: Record<string, string> | null): DeliveryJob {
  const data = { incident_id: 'inc_1', title: 'Ransomware on host-7', ...(severity === null ? {} : { severity }) };
  return { ...makeJob({ event: kind, timestamp: '2026-11-22T10:00:00Z', data }), references };
}

describe('buildSlackApiCalls', () => {
  it('posts the first event of a key to the configured channel, with the default card', () => {
    const calls = buildSlackApiCalls(spec, job('incident.created', 'low', null));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('chat.postMessage');
    expect(calls[0]?.args).toMatchObject({ channel: '#soc-alerts', text: expect.stringContaining('Ransomware') });
    expect(calls[0]?.args['thread_ts']).toBeUndefined();
    expect(calls[0]?.args['attachments']).toEqual([expect.objectContaining({ color: '#ECB22E' })]);
  });

  it('replies to an update in the remembered thread, in the channel id Slack answered', () => {
    const calls = buildSlackApiCalls(spec, job('incident.updated', 'medium', THREAD));
    expect(calls).toEqual([
      {
        method: 'chat.postMessage',
        args: expect.objectContaining({ channel: 'C0SOCALERT', thread_ts: THREAD.ts }) as unknown,
      },
    ]);
    expect(calls[0]?.args['reply_broadcast']).toBeUndefined();
  });

  it('broadcasts a reply whose severity rises to high or critical, and only then', () => {
    const raised = buildSlackApiCalls(spec, job('incident.updated', 'Critical', THREAD));
    expect(raised[0]?.args).toMatchObject({ thread_ts: THREAD.ts, reply_broadcast: true });
    const already = buildSlackApiCalls(spec, job('incident.updated', 'critical', { ...THREAD, severity: 'high' }));
    expect(already[0]?.args['reply_broadcast']).toBeUndefined();
    const unknown = buildSlackApiCalls(spec, job('incident.updated', 'high', { ts: THREAD.ts, channel: 'C1' }));
    expect(unknown[0]?.args['reply_broadcast']).toBe(true);
  });

  it('on resolve edits the parent to the resolved card first, then replies in the thread', () => {
    const calls = buildSlackApiCalls(spec, job('incident.resolved', null, THREAD));
    expect(calls.map((call) => call.method)).toEqual(['chat.update', 'chat.postMessage']);
    expect(calls[0]?.args).toMatchObject({
      channel: 'C0SOCALERT',
      ts: THREAD.ts,
      text: expect.stringMatching(/^:white_check_mark: /) as unknown,
    });
    expect(calls[0]?.args['attachments']).toEqual([expect.objectContaining({ color: '#2EB67D' })]);
    expect(calls[0]?.args['thread_ts']).toBeUndefined();
    expect(calls[1]?.args).toMatchObject({ channel: 'C0SOCALERT', thread_ts: THREAD.ts });
  });

  it('a resolve with no remembered thread is a plain post', () => {
    const calls = buildSlackApiCalls(spec, job('incident.resolved', null, null));
    expect(calls).toEqual([{ method: 'chat.postMessage', args: expect.objectContaining({ channel: '#soc-alerts' }) }]);
  });

  it('uses the message template, clipped, and a template cannot choose the channel or thread', () => {
    const message = compileTemplateTree(
      { text: 'x{{ data.title }}', channel: '#elsewhere', thread_ts: '1.2', reply_broadcast: true },
      'slack',
    );
    const templated = makeSlackSpec({ ...spec, message });
    const update = buildSlackApiCalls(templated, { ...job('incident.updated', 'low', THREAD) });
    expect(update[0]?.args).toMatchObject({
      text: 'xRansomware on host-7',
      channel: 'C0SOCALERT',
      thread_ts: THREAD.ts,
    });
    expect(update[0]?.args['reply_broadcast']).toBeUndefined();
    const created = buildSlackApiCalls(templated, job('incident.created', 'low', null));
    expect(created[0]?.args['channel']).toBe('#soc-alerts');
    expect(created[0]?.args['thread_ts']).toBeUndefined();
  });
});

describe('slackThreadOf', () => {
  it('needs both ts and channel', () => {
    expect(slackThreadOf(null)).toBeNull();
    expect(slackThreadOf({ ts: '1.2' })).toBeNull();
    expect(slackThreadOf({ ts: '1.2', channel: 'C1' })).toEqual({ ts: '1.2', channel: 'C1', severity: null });
  });
});
