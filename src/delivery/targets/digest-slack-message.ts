import type { IncomingWebhookSendArguments } from '@slack/webhook';
import { escapeSlack } from '../../templates/escape-slack.js';
import type { DeliveryJob } from '../target.js';
import { asRecord, readEventDetails, textOf } from './read-event-details.js';

/** Lines listed in a digest card; the rest are counted (Slack sections hold 3,000 characters). */
const LISTED = 20;
const LINE_CHARS = 120;

/**
 * The default Slack message of a digest (`switchyard.digest`): how many events, the group key, and the first
 * events' titles (or kind and host), each escaped and clipped, with "and N more".
 */
export function digestSlackMessage(job: DeliveryJob): IncomingWebhookSendArguments {
  const group = asRecord(job.envelope['group']);
  const count = typeof group['count'] === 'number' ? group['count'] : 0;
  const events = Array.isArray(group['events']) ? (group['events'] as unknown[]) : [];
  const title = escapeSlack(clip(textOf(asRecord(job.envelope['data'])['title']) ?? `${count} events`));
  const lines = events.slice(0, LISTED).map((event) => {
    const envelope = asRecord(event);
    const details = readEventDetails(envelope['data']);
    const kind = textOf(envelope['event']) ?? 'event';
    const what = details.title ?? details.host ?? details.incident ?? '';
    return `• ${escapeSlack(clip(`${kind}${what === '' ? '' : `: ${what}`}`))}`;
  });
  const more = count - lines.length;
  if (more > 0) lines.push(`_and ${more} more_`);
  return {
    text: `:package: ${title}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `:package: *${title}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') || '_no events_' } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `Switchyard digest · ${escapeSlack(job.event.id)} · ${count} events` }],
      },
    ],
  };
}

function clip(text: string): string {
  return text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS - 1)}…` : text;
}
