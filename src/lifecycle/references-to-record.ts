import type { Outcome } from '../delivery/outcome.js';
import type { AttemptRecord, ClaimedDelivery } from '../store/store.js';
import { RESOLVING_KINDS } from './choose-situation.js';

/**
 * What a finished attempt writes to its key's references (issue 14): nothing unless the delivery has a
 * correlation key and was delivered; then the values the target captured (an empty merge still marks the key as
 * started, so the next event is an update), or, after a resolving event, a clear, so the key's next event
 * starts afresh with its "first event" request.
 */
export function referencesToRecord(claimed: ClaimedDelivery, outcome: Outcome): AttemptRecord['references'] {
  const key = claimed.delivery.correlationKey;
  if (key === null || key === undefined || outcome.kind !== 'delivered') return undefined;
  if (RESOLVING_KINDS.has(claimed.event.kind)) return { clear: true };
  return { merge: outcome.captured ?? {} };
}
