import type { ReplaySelection, Store, StoredDelivery } from './store.js';

export interface ReplayPlan {
  /** What `store.replay` re-queues for this selection (unless the journal changes meanwhile). */
  readonly requeue: readonly string[];
  /** Delivered deliveries the selection names but leaves alone without `includeDelivered`. */
  readonly skippedDelivered: readonly string[];
}

/**
 * What a replay would do, read without changing anything: for a dry run, and to tell the user how many delivered
 * deliveries were left out and why. The filter's own `limit` applies, as in `store.replay`.
 */
export async function planReplay(
  store: Pick<Store, 'getDelivery' | 'findDeliveries'>,
  selection: ReplaySelection,
): Promise<ReplayPlan> {
  const found: (StoredDelivery | undefined)[] =
    'ids' in selection
      ? await Promise.all(selection.ids.map((id) => store.getDelivery(id)))
      : await store.findDeliveries({ ...selection.filter, limit: selection.filter.limit ?? Number.MAX_SAFE_INTEGER });
  const requeue: string[] = [];
  const skippedDelivered: string[] = [];
  for (const delivery of found) {
    // Dead and delivered ones only: pending and held ones are never re-queued (replayable-sql.ts).
    if (delivery?.state === 'dead') requeue.push(delivery.id);
    else if (delivery?.state === 'delivered' && selection.includeDelivered === true) requeue.push(delivery.id);
    else if (delivery?.state === 'delivered') skippedDelivered.push(delivery.id);
  }
  return { requeue, skippedDelivered };
}

/** The sentence that says what was left out and how to include it (`how`: the flag or field to use). */
export function skippedDeliveredNote(skipped: readonly string[], how: string): string {
  return (
    `left ${skipped.length} delivered ${skipped.length === 1 ? 'delivery' : 'deliveries'} alone ` +
    `(${skipped.join(' ')}): the receiver already has ${skipped.length === 1 ? 'it' : 'them'}; ${how} to send ` +
    `${skipped.length === 1 ? 'it' : 'them'} again, with a new Idempotency-Key`
  );
}
