import type { StoredDelivery } from '../store/store.js';

/**
 * Why a pending delivery is not sent yet (issue 14), in the same words in the CLI and the docs: it waits behind
 * an earlier delivery of its correlation key; a dead one holds it until replayed and delivered, or skipped.
 */
export function describeWaiting(delivery: Pick<StoredDelivery, 'waitingFor'>): string | undefined {
  const waiting = delivery.waitingFor;
  if (waiting === undefined) return undefined;
  return waiting.state === 'dead'
    ? `waiting for ${waiting.id} (dead: replay or skip it to go on)`
    : `waiting for ${waiting.id} (${waiting.state})`;
}
