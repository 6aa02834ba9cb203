import type { IncomingWebhookSendArguments } from '@slack/webhook';
import { escapeSlack } from '../../templates/escape-slack.js';
import type { DeliveryJob } from '../target.js';
import { digestSlackMessage } from './digest-slack-message.js';
import { eventPhrase } from './event-phrase.js';
import { detailRows, readEventDetails, textOf } from './read-event-details.js';

interface Look {
  readonly emoji: string;
  readonly color: string;
}

/** Good news (resolved, back online) is green whatever its severity. */
const GOOD_NEWS: ReadonlySet<string> = new Set(['incident.resolved', 'agent.online']);
const GOOD: Look = { emoji: ':white_check_mark:', color: '#2EB67D' };
const BY_SEVERITY: Readonly<Record<string, Look>> = {
  critical: { emoji: ':rotating_light:', color: '#B00020' },
  high: { emoji: ':red_circle:', color: '#E01E5A' },
  medium: { emoji: ':large_orange_circle:', color: '#F2994A' },
  low: { emoji: ':large_yellow_circle:', color: '#ECB22E' },
  info: { emoji: ':large_blue_circle:', color: '#1D9BD1' },
};
const NO_SEVERITY: Look = { emoji: ':white_circle:', color: '#9E9E9E' };
/** An unexpected severity is shown as urgent, as the rules read it (the highest level). */
const UNKNOWN_SEVERITY: Look = { emoji: ':warning:', color: '#B00020' };

/** Well under Slack's limits (which `clipSlackMessage` enforces on every message), so the card stays a card. */
const TITLE_CHARS = 150;
const FIELD_CHARS = 300;

/**
 * The message sent when a Slack target has no `message:` template: a coloured Block Kit card with the title,
 * severity, event kind, incident, host, agent, policy, verdict and time, and a plain `text` fallback for
 * notifications. Every event-derived string is clipped and escaped (`&`, `<`, `>`), so a title holding
 * `<!channel>` stays text.
 */
export function defaultSlackMessage(job: DeliveryJob): IncomingWebhookSendArguments {
  const kind = job.event.kind;
  if (kind === 'switchyard.digest') return digestSlackMessage(job);
  const details = readEventDetails(job.envelope.data);
  const look = lookOf(kind, job.event.severity);
  const title = escapeSlack(clip(details.title ?? eventPhrase(kind, details), TITLE_CHARS));
  const fields: [string, string][] = [
    ['Severity', job.event.severity ?? 'not set'],
    ['Event', kind],
    ...detailRows(details),
  ];
  const shown = fields.map(([label, value]) => ({
    type: 'mrkdwn' as const,
    text: `*${label}*\n${escapeSlack(clip(value, FIELD_CHARS))}`,
  }));
  shown.push({
    type: 'mrkdwn',
    text: `*Time*\n${slackTime(textOf(job.envelope.timestamp) ?? job.event.occurredAt)}`,
  });
  const suppressed = suppressedNote(job);
  if (suppressed !== undefined) shown.push({ type: 'mrkdwn', text: `*Throttled*\n${suppressed}` });
  return {
    text: `${look.emoji} ${title}`,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `${look.emoji} *${title}*` } }],
    attachments: [
      {
        color: look.color,
        blocks: [
          { type: 'section', fields: shown },
          {
            type: 'context',
            elements: [
              {
                type: 'mrkdwn',
                text: `Switchyard · ${escapeSlack(job.event.id)} · from ${escapeSlack(job.event.source)}`,
              },
            ],
          },
        ],
      },
    ],
  };
}

/** Issue 12: what a throttle held back before this one, for the default messages (Slack and e-mail). */
export function suppressedNote(job: Pick<DeliveryJob, 'suppressedCount'>): string | undefined {
  const count = job.suppressedCount ?? 0;
  if (count === 0) return undefined;
  return `${count} similar ${count === 1 ? 'event was' : 'events were'} suppressed since the last message`;
}

function lookOf(kind: string, severity: string | null): Look {
  if (GOOD_NEWS.has(kind)) return GOOD;
  if (severity === null) return NO_SEVERITY;
  return BY_SEVERITY[severity.toLowerCase()] ?? UNKNOWN_SEVERITY;
}

/** Slack shows `<!date^…>` in each reader's time zone; the text after `|` is shown where it cannot. */
function slackTime(raw: string): string {
  const ms = Date.parse(raw);
  const shown = escapeSlack(clip(raw, FIELD_CHARS));
  if (Number.isNaN(ms)) return shown;
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time_secs}|${shown}>`;
}

/** Cuts by code point, so an emoji is never split in half; looks at no more of a huge string than it needs. */
function clip(text: string, max: number): string {
  const chars = Array.from(text.slice(0, (max + 1) * 2));
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
