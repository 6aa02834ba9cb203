import type { IncomingWebhookSendArguments } from '@slack/webhook';
import { escapeSlack } from '../../templates/escape-slack.js';
import { eventCount } from '../../noise/event-count.js';
import type { DeliveryJob } from '../target.js';
import { clipChars } from './clip-chars.js';
import { readDigest } from './read-digest.js';

/** The headline's length; the listed lines are clipped by `readDigest` (Slack sections hold 3,000 characters). */
const TITLE_CHARS = 120;

/**
 * The default Slack message of a digest (`switchyard.digest`): how many events, the group key, and the first
 * events' titles (or kind and host), each escaped and clipped, with "and N more".
 */
export function digestSlackMessage(job: DeliveryJob): IncomingWebhookSendArguments {
  const digest = readDigest(job);
  const title = escapeSlack(clipChars(digest.title, TITLE_CHARS));
  const lines = digest.lines.map((line) => `• ${escapeSlack(line)}`);
  if (digest.more > 0) lines.push(`_and ${digest.more} more_`);
  return {
    text: `:package: ${title}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `:package: *${title}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') || '_no events_' } },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: `Switchyard digest · ${escapeSlack(job.event.id)} · ${eventCount(digest.count)}` },
        ],
      },
    ],
  };
}
