import { captureMissOf } from '../../lifecycle/capture-miss.js';
import { describeWaiting } from '../../lifecycle/describe-waiting.js';
import { describeHold } from '../../noise/describe-hold.js';
import type { StoredAttempt, StoredDelivery } from '../../store/store.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A delivery as the API shows it: times as ISO 8601 (UTC); `nextAttemptAt` only while it is pending, and no
 * earlier than `heldUntil`, when its target's open circuit (next probe) or `Retry-After` pause holds it back:
 * the stored due time has passed by then, but nothing is sent before that.
 */
export function presentDelivery(delivery: StoredDelivery, heldUntil = 0) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    target: delivery.target,
    state: delivery.state,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.state === 'pending' ? iso(Math.max(delivery.nextAttemptAt, heldUntil)) : null,
    // Already redacted by the engine before it was stored (secrets and URLs masked).
    lastError: delivery.lastError,
    // Issue 12: what held a delivery back (a silence id, ...); null for one that is sent.
    heldBy: delivery.heldBy ?? null,
    heldReason: describeHold(delivery.state, delivery.heldBy) ?? null,
    // Issue 14: the delivery's correlation key, and the earlier delivery of that key it waits behind (pending).
    correlationKey: delivery.correlationKey ?? null,
    waitingFor: delivery.waitingFor ?? null,
    waitingReason: describeWaiting(delivery) ?? null,
    // A delivered delivery whose answer lacked a captured value: a warning (the key's later requests need it).
    captureMiss: captureMissOf(delivery),
    createdAt: iso(delivery.createdAt),
    updatedAt: iso(delivery.updatedAt),
  };
}

/** One attempt of a delivery; `detail` was redacted before it was stored. */
export function presentAttempt(attempt: StoredAttempt) {
  return {
    number: attempt.number,
    startedAt: iso(attempt.startedAt),
    durationMs: attempt.durationMs,
    outcome: attempt.outcome,
    statusCode: attempt.statusCode,
    detail: attempt.detail,
  };
}
