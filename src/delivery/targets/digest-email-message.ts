import { limitDepth } from '../../templates/limit-depth.js';
import type { DeliveryJob } from '../target.js';
import type { EmailContent } from './default-email-message.js';
import { flattenHeaderText } from './flatten-header-text.js';
import { readDigest } from './read-digest.js';
import { asRecord, textOf } from './read-event-details.js';

/**
 * The default e-mail of a digest (`switchyard.digest`): `[DIGEST] 500 events grouped by storm: brute-force` as
 * the subject, then the count, the group key and the first events one per line ("and N more"), and the
 * digest as received (every collected event, up to the route's `max_events`). Plain text, like every default
 * e-mail: nothing in it needs escaping.
 */
export function digestEmailMessage(job: DeliveryJob): EmailContent {
  const digest = readDigest(job);
  const heading = flattenHeaderText(digest.title);
  const digestId = flattenHeaderText(textOf(asRecord(job.envelope['data'])['digest_id']) ?? job.event.id, 100);
  const lines = digest.lines.map((line) => `- ${flattenHeaderText(line)}`);
  if (digest.more > 0) lines.push(`- and ${digest.more} more`);
  const text = [
    heading,
    '',
    `Events:     ${digest.count}`,
    ...(digest.key === '' ? [] : [`Group key:  ${flattenHeaderText(digest.key, 500)}`]),
    // The id `switchyard deliveries --held-by` and the admin API's heldBy take; the event id is the digest's own.
    `Digest id:  ${digestId} (its events: switchyard deliveries --held-by ${digestId})`,
    `Event id:   ${job.event.id}`,
    `Delivery:   ${job.deliveryId}`,
    '',
    ...(lines.length === 0 ? ['(no events)'] : lines),
    '',
    'Digest as received:',
    JSON.stringify(limitDepth(job.envelope), null, 2),
    '',
  ].join('\n');
  return { subject: flattenHeaderText(`[DIGEST] ${heading}`), text };
}
