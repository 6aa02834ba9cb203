import { createHash } from 'node:crypto';
import { eventTitle } from '../ingest/event-title.js';
import type { DueDigest } from '../store/digest-records.js';
import type { NewEvent, StoredEvent } from '../store/store.js';
import { eventCount } from './event-count.js';

/**
 * The digest's own event, `switchyard.digest` from the source `switchyard`: templates see `group.key` (the
 * rendered `by` values), `group.count` (every event collected), `group.events` (the first `max_events`
 * envelopes, oldest first), `group.omitted` and `group.event_ids` (to trace each event to the digest); the
 * HTTP default body is this envelope, so it carries the `events` array. Unreadable stored bodies are skipped.
 */
export function buildDigestEvent(
  digest: DueDigest,
  events: readonly StoredEvent[],
  context: { readonly id: string; readonly now: number; readonly rulesVersion: string },
): NewEvent {
  const envelopes = events.flatMap((event) => {
    try {
      return [JSON.parse(event.body.toString('utf8')) as unknown];
    } catch {
      return [];
    }
  });
  const label = digest.groupKey.slice(digest.route.length + 1);
  const timestamp = new Date(context.now).toISOString();
  const envelope = {
    event: 'switchyard.digest',
    timestamp,
    data: {
      title: `${eventCount(digest.count)} grouped by ${digest.route}${label === '' ? '' : `: ${label}`}`,
      route: digest.route,
      target: digest.target,
      digest_id: digest.id,
      first_at: new Date(digest.firstAt).toISOString(),
    },
    group: {
      key: label,
      count: digest.count,
      omitted: Math.max(0, digest.count - envelopes.length),
      event_ids: events.map((event) => event.id),
      events: envelopes,
    },
  };
  const body = Buffer.from(JSON.stringify(envelope));
  return {
    id: context.id,
    source: 'switchyard',
    kind: 'switchyard.digest',
    severity: null,
    occurredAt: timestamp,
    receivedAt: context.now,
    body,
    bodySha256: createHash('sha256').update(body).digest('hex'),
    rulesVersion: context.rulesVersion,
    matchedRoutes: [digest.route],
    // Listed and searched by it in the console, as ingest stores the title of the events it receives.
    title: eventTitle(envelope),
  };
}
