import { clipText } from './clip-line.js';
import type { PagerdutyTrigger } from './build-pagerduty-event.js';

/** PagerDuty refuses a larger event (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/). */
export const MAX_EVENT_BYTES = 512 * 1024;
/** What each string of `custom_details` keeps when the whole does not fit. */
const CLIPPED_STRING = 1_024;

/**
 * The trigger as built when it is within PagerDuty's size limit; else with every string in `custom_details`
 * clipped; else with `custom_details` replaced by a note pointing at the event in Switchyard. Only the details
 * give way: the summary, source and key are bounded already, and a page without details beats no page.
 */
export function fitPagerdutyEvent(event: PagerdutyTrigger, eventId: string): PagerdutyTrigger {
  const details = event.payload.custom_details;
  if (details === undefined || fits(event)) return event;
  const clipped = withDetails(event, clipStrings(details));
  if (fits(clipped)) return clipped;
  const size = Buffer.byteLength(JSON.stringify(details), 'utf8');
  return withDetails(event, {
    switchyard_note: `the event's data (${size} bytes) is over PagerDuty's event size limit; see ${eventId} in Switchyard`,
  });
}

function fits(event: PagerdutyTrigger): boolean {
  return Buffer.byteLength(JSON.stringify(event), 'utf8') <= MAX_EVENT_BYTES;
}

function withDetails(event: PagerdutyTrigger, details: unknown): PagerdutyTrigger {
  return { ...event, payload: { ...event.payload, custom_details: details } };
}

/** Depth is bounded already (`limitDepth`), so the recursion is too. */
function clipStrings(value: unknown): unknown {
  if (typeof value === 'string') return clipText(value, CLIPPED_STRING);
  if (Array.isArray(value)) return value.map(clipStrings);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries keeps a `__proto__` key a plain key.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clipStrings(item)]));
}
