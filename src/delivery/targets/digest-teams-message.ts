import { eventCount } from '../../noise/event-count.js';
import type { DeliveryJob } from '../target.js';
import { cardFooter, cardHeadline } from './card-parts.js';
import { cardText } from './card-text.js';
import { readDigest } from './read-digest.js';
import { CARD_HEADER, type AdaptiveCard } from './teams-payload.js';

const TITLE_CHARS = 150;
const KEY_CHARS = 300;

/**
 * The default Teams card of a digest (`switchyard.digest`): the headline, how many events and the group key
 * as facts, the first events' titles (or kind and host) as a list, each escaped and clipped, and "and N more".
 */
export function digestTeamsMessage(job: DeliveryJob): AdaptiveCard {
  const digest = readDigest(job);
  const facts = [{ title: 'Events', value: String(digest.count) }];
  if (digest.key !== '') facts.push({ title: 'Group', value: cardText(digest.key, KEY_CHARS) });
  // Each line is escaped (and flattened) on its own, so an event cannot end the list or start another block.
  const list = digest.lines.map((line) => `- ${cardText(line, line.length)}`).join('\n');
  return {
    ...CARD_HEADER,
    msteams: { width: 'Full' },
    body: [
      cardHeadline(`📦 ${cardText(digest.title, TITLE_CHARS)}`, 'accent'),
      { type: 'FactSet', facts },
      { type: 'TextBlock', text: list === '' ? '_no events_' : list, wrap: true },
      ...(digest.more > 0
        ? [{ type: 'TextBlock', text: `_and ${digest.more} more_`, wrap: true, spacing: 'None' }]
        : []),
      cardFooter(`Switchyard digest · ${cardText(job.event.id, KEY_CHARS)} · ${eventCount(digest.count)}`),
    ],
  };
}
