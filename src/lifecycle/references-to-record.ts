import type { Outcome } from '../delivery/outcome.js';
import type { AttemptRecord, ClaimedDelivery } from '../store/store.js';
import { RESOLVING_KINDS } from './choose-situation.js';

/**
 * What a finished attempt writes to its key's references (issue 14): nothing unless the delivery has a
 * correlation key and was delivered; then the values the target captured (an empty merge still marks the key as
 * started, so the next event is an update), or, after a resolving event, a clear, so the key's next event
 * starts afresh with its "first event" request. A delivery sent with no references is marked as the key's start.
 */
export function referencesToRecord(claimed: ClaimedDelivery, outcome: Outcome): AttemptRecord['references'] {
  const key = claimed.delivery.correlationKey;
  if (key === null || key === undefined || outcome.kind !== 'delivered') return undefined;
  if (RESOLVING_KINDS.has(claimed.event.kind)) return { clear: true };
  const captured = Object.entries(outcome.captured ?? {}).map(([name, value]) => [name, storable(value)]);
  const merge = Object.fromEntries(captured) as Record<string, string>;
  // Sent with nothing remembered for the key: this delivery is the key's create, and a replay of it is one too.
  return (claimed.references ?? null) === null ? { merge, started: true } : { merge };
}

// A captured value comes from the receiver's answer. PostgreSQL's jsonb refuses U+0000 and a lone surrogate
// (`\u0000`, `\ud800` as JSON writes them), which would roll back the whole batch of records and have its
// attempts sent again after the lease: both become U+FFFD, on either journal, so the values stay alike.
// https://www.postgresql.org/docs/current/datatype-json.html
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const storable = (value: string): string => value.replaceAll('\0', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
