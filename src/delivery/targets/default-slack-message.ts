import type { IncomingWebhookSendArguments } from '@slack/webhook';
import { escapeSlack } from '../../templates/escape-slack.js';
import type { DeliveryJob } from '../target.js';
import { clipChars as clip } from './clip-chars.js';
import { digestSlackMessage } from './digest-slack-message.js';
import { eventFacts } from './event-facts.js';
import { eventHeadline } from './event-headline.js';
import { readEventDetails, textOf } from './read-event-details.js';
import { toneLook } from './severity-tone.js';

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
  const look = toneLook(kind, job.event.severity);
  const title = escapeSlack(clip(eventHeadline(kind, details), TITLE_CHARS));
  const shown = eventFacts(job, details).map(([label, value]) => ({
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
    text: `${look.slackEmoji} ${title}`,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `${look.slackEmoji} *${title}*` } }],
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

/** Issue 12: what a throttle held back before this one, for the default messages (Slack, Teams, e-mail). */
export function suppressedNote(job: Pick<DeliveryJob, 'suppressedCount'>): string | undefined {
  const count = job.suppressedCount ?? 0;
  if (count === 0) return undefined;
  return `${count} similar ${count === 1 ? 'event was' : 'events were'} suppressed since the last message`;
}

/** Slack shows `<!date^…>` in each reader's time zone; the text after `|` is shown where it cannot. */
function slackTime(raw: string): string {
  const ms = Date.parse(raw);
  const shown = escapeSlack(clip(raw, FIELD_CHARS));
  if (Number.isNaN(ms)) return shown;
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time_secs}|${shown}>`;
}
