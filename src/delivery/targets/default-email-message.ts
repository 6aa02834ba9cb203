import { suppressedNote } from './default-slack-message.js';
import { limitDepth } from '../../templates/limit-depth.js';
import type { DeliveryJob } from '../target.js';
import { digestEmailMessage } from './digest-email-message.js';
import { flattenHeaderText } from './flatten-header-text.js';
import { asRecord, detailRows, readEventDetails, textOf, type EventDetails } from './read-event-details.js';

export interface EmailContent {
  readonly subject: string;
  readonly text: string;
}

/**
 * The message sent when a target has no `subject` / `text` template: a subject such as
 * `[CRITICAL] Incident created: Suspicious login`, and a plain-text body with the key fields and the event
 * as received, pretty-printed (parts nested past `MAX_SHOWN_DEPTH` shown as a marker). Plain text only: it
 * reads the same in every client and ticket gateway, and needs no escaping of event content.
 */
export function defaultEmailMessage(job: DeliveryJob): EmailContent {
  if (job.event.kind === 'switchyard.digest') return digestEmailMessage(job);
  const data = job.envelope['data'];
  const details = readEventDetails(data);
  const heading = flattenHeaderText(describeKind(job.event.kind) + titleSuffix(data, details));
  const severity = job.event.severity === null ? '' : flattenHeaderText(job.event.severity, 30);
  const subject = severity === '' ? heading : `[${severity.toUpperCase()}] ${heading}`;
  const rows: [string, string][] = [];
  if (severity !== '') rows.push(['Severity', severity]);
  rows.push(['Event', flattenHeaderText(job.event.kind)]);
  for (const [label, value] of detailRows(details)) rows.push([label, flattenHeaderText(value, 500)]);
  rows.push(
    ['Occurred at', flattenHeaderText(job.event.occurredAt)],
    ['Received at', new Date(job.event.receivedAt).toISOString()],
    ['Source', job.event.source],
    ['Event id', job.event.id],
    ['Delivery id', job.deliveryId],
  );
  const suppressed = suppressedNote(job);
  if (suppressed !== undefined) rows.push(['Throttled', suppressed]);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const table = rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`).join('\n');
  const text = [
    heading,
    '',
    table,
    '',
    'Event as received:',
    JSON.stringify(limitDepth(job.envelope), null, 2),
    '',
  ].join('\n');
  return { subject: flattenHeaderText(subject), text };
}

/** `incident.created` → `Incident created`; unknown kinds read the same way. */
function describeKind(kind: string): string {
  const words = kind
    .split(/[._-]+/)
    .filter((word) => word !== '')
    .join(' ');
  return words === '' ? 'Event' : words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the event is called, most telling first: its title, else what it is about (host, policy, incident). */
function titleSuffix(data: unknown, { title, host, policy, incident }: EventDetails): string {
  const fields = asRecord(data);
  const name = title ?? textOf(fields.summary) ?? textOf(fields.name) ?? host ?? policy ?? incident;
  return name === undefined ? '' : `: ${name}`;
}
