import type { SlackTargetSpec } from '../../rules/rules.js';
import { chooseSituation } from '../../lifecycle/choose-situation.js';
import type { DeliveryJob } from '../target.js';
import { buildSlackMessage } from './build-slack-message.js';

/** One Web API call: the method and its arguments (the client sends the token). */
export interface SlackApiCall {
  readonly method: 'chat.postMessage' | 'chat.update';
  readonly args: Readonly<Record<string, unknown>>;
}

/** The thread a correlation key's first message started, as remembered from its answer. */
export interface SlackThread {
  readonly channel: string;
  readonly ts: string;
  /** The severity the thread last showed, to broadcast a reply only when it is raised to the top levels. */
  readonly severity: string | null;
}

/** Severities whose replies also show in the channel (`reply_broadcast`), when the thread was below them. */
const TOP_SEVERITIES: ReadonlySet<string> = new Set(['critical', 'high']);

/**
 * The Web API calls for one delivery (issue 14), by situation: the first event of a key posts the card to the
 * channel; an update replies in its thread (`thread_ts`), broadcast to the channel when the severity rises to
 * critical or high; a resolving event edits the parent to the resolved card (`chat.update`) and replies in the
 * thread, in that order, so a retry after a failed reply repeats the idempotent edit, not a reply. Without a
 * remembered thread every event is a plain post. The message is the target's template or the default card,
 * clipped as for webhooks. Arguments left undefined are not sent.
 */
export function buildSlackApiCalls(spec: SlackTargetSpec, job: DeliveryJob): SlackApiCall[] {
  const message = buildSlackMessage(spec, job);
  // The channel and thread come from the rules and the references, never from a message template.
  const post: Record<string, unknown> = {
    ...message,
    channel: spec.channel,
    thread_ts: undefined,
    reply_broadcast: undefined,
    ...(spec.username === null ? {} : { username: spec.username }),
    ...(spec.iconEmoji === null ? {} : { icon_emoji: spec.iconEmoji }),
  };
  const thread = slackThreadOf(job.references ?? null);
  if (thread === null) return [{ method: 'chat.postMessage', args: post }];
  const reply = { ...post, channel: thread.channel, thread_ts: thread.ts };
  if (chooseSituation(job.event.kind, job.references ?? null) === 'resolve') {
    const { text, blocks, attachments } = message;
    const edit = { channel: thread.channel, ts: thread.ts, text, blocks, attachments };
    return [
      { method: 'chat.update', args: edit },
      { method: 'chat.postMessage', args: reply },
    ];
  }
  const raised = isTop(job.event.severity) && !isTop(thread.severity);
  return [{ method: 'chat.postMessage', args: raised ? { ...reply, reply_broadcast: true } : reply }];
}

/** The remembered thread, or null when the key has none yet (or its references are not a Slack thread's). */
export function slackThreadOf(references: Readonly<Record<string, string>> | null): SlackThread | null {
  const ts = references?.['ts'];
  const channel = references?.['channel'];
  if (ts === undefined || channel === undefined || ts === '' || channel === '') return null;
  return { ts, channel, severity: references?.['severity'] ?? null };
}

function isTop(severity: string | null): boolean {
  return severity !== null && TOP_SEVERITIES.has(severity.toLowerCase());
}
