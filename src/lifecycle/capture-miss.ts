import type { StoredDelivery } from '../store/store.js';

/** A `capture:` name the answer gave no value for, and why (`not in the answer`, `the answer is not JSON`). */
export interface CaptureMiss {
  readonly name: string;
  readonly reason: string;
}

/**
 * How a capture miss starts, in an attempt's detail and as the last error of a delivery that was delivered
 * nonetheless (the ticket exists): the later requests of its key that need the value cannot be built.
 */
const CAPTURE_MISSED = 'capture missed: ';

/** `capture missed: ticket (not in the answer); id (the answer is not JSON)`, one part per reason. */
export function describeCaptureMiss(misses: readonly CaptureMiss[]): string {
  const byReason = new Map<string, string[]>();
  for (const { name, reason } of misses) byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  const parts = [...byReason].map(([reason, names]) => `${names.join(', ')} (${reason})`);
  return `${CAPTURE_MISSED}${parts.join('; ')}`;
}

/** The capture miss a delivered delivery carries as its last error, or null: the listing's warning. */
export function captureMissOf(delivery: Pick<StoredDelivery, 'state' | 'lastError'>): string | null {
  const text = delivery.lastError;
  return delivery.state === 'delivered' && text !== null && text.startsWith(CAPTURE_MISSED) ? text : null;
}
