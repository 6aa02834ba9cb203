import type { IngestItem } from '../store/store.js';

/**
 * The targets an ingested item gave a delivery the engine may send: the ones to wake after its commit. A
 * delivery held by a silence or a time interval, or grouped into a digest, waits for its release or its
 * digest (whose sender wakes the engine); one under a throttle may go, which only the transaction decided.
 */
export function sendableTargets(item: IngestItem): string[] {
  return item.targets.filter((_target, index) => !item.holds?.[index] && !item.groups?.[index]);
}
