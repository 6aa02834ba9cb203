import type { DeliveryJob } from '../target.js';
import { cardFooter, cardHeadline } from './card-parts.js';
import { cardText } from './card-text.js';
import { suppressedNote } from './default-slack-message.js';
import { digestTeamsMessage } from './digest-teams-message.js';
import { eventFacts } from './event-facts.js';
import { eventHeadline } from './event-headline.js';
import { readEventDetails, textOf } from './read-event-details.js';
import { toneLook } from './severity-tone.js';
import { CARD_HEADER, type AdaptiveCard } from './teams-payload.js';

/** Well under Teams' message size (which `clipTeamsMessage` enforces on every message), so the card stays a card. */
const TITLE_CHARS = 150;
const FIELD_CHARS = 300;

/**
 * The Adaptive Card sent when a Teams target has no `message:` template: a band in the severity's colour with
 * the headline, then the severity, event kind, incident, host, agent, policy, verdict and time as facts, and
 * what a throttle held back. Every event-derived string is clipped, flattened to one line and escaped for
 * Markdown, so a title holding `[click](http://evil)` or `<at>x</at>` stays text.
 */
export function defaultTeamsMessage(job: DeliveryJob): AdaptiveCard {
  const kind = job.event.kind;
  if (kind === 'switchyard.digest') return digestTeamsMessage(job);
  const details = readEventDetails(job.envelope.data);
  const look = toneLook(kind, job.event.severity);
  const rows: [string, string][] = [
    ...eventFacts(job, details),
    ['Time', textOf(job.envelope.timestamp) ?? job.event.occurredAt],
  ];
  const suppressed = suppressedNote(job);
  if (suppressed !== undefined) rows.push(['Throttled', suppressed]);
  return {
    ...CARD_HEADER,
    msteams: { width: 'Full' },
    body: [
      cardHeadline(`${look.emoji} ${cardText(eventHeadline(kind, details), TITLE_CHARS)}`, look.band),
      { type: 'FactSet', facts: rows.map(([title, value]) => ({ title, value: cardText(value, FIELD_CHARS) })) },
      cardFooter(
        `Switchyard · ${cardText(job.event.id, FIELD_CHARS)} · from ${cardText(job.event.source, FIELD_CHARS)}`,
      ),
    ],
  };
}
