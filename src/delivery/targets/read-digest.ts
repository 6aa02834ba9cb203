import { eventCount } from '../../noise/event-count.js';
import type { DeliveryJob } from '../target.js';
import { clipChars } from './clip-chars.js';
import { asRecord, readEventDetails, textOf } from './read-event-details.js';

/** Events listed in a default digest message; the rest are counted. */
const LISTED = 20;
const LINE_CHARS = 120;

export interface DigestSummary {
  /** `data.title` (`500 events grouped by storm: brute-force`), else `N events`; not clipped. */
  readonly title: string;
  readonly count: number;
  /** The rendered `by` values (`group.key`); empty for a route grouped as a whole. */
  readonly key: string;
  /** `kind: title` (or host, or incident) of the first events, each clipped, not escaped. */
  readonly lines: readonly string[];
  /** Events collected but not listed. */
  readonly more: number;
}

/** What the default digest messages (Slack, Teams, e-mail) show of a `switchyard.digest` event, read in one place. */
export function readDigest(job: DeliveryJob): DigestSummary {
  const group = asRecord(job.envelope['group']);
  const count = typeof group['count'] === 'number' ? group['count'] : 0;
  const events = Array.isArray(group['events']) ? (group['events'] as unknown[]) : [];
  const lines = events.slice(0, LISTED).map((event) => {
    const envelope = asRecord(event);
    const details = readEventDetails(envelope['data']);
    const kind = textOf(envelope['event']) ?? 'event';
    const what = details.title ?? details.host ?? details.incident ?? '';
    return clipChars(`${kind}${what === '' ? '' : `: ${what}`}`, LINE_CHARS);
  });
  return {
    title: textOf(asRecord(job.envelope['data'])['title']) ?? eventCount(count),
    count,
    key: textOf(group['key']) ?? '',
    lines,
    more: Math.max(0, count - lines.length),
  };
}
