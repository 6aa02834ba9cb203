import { parseDeliveryId } from './sqlite/parse-delivery-id.js';
import type { DeliveryFilter, ReplaySelection, Store, StoredDelivery } from './store.js';

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
      : await findFiltered(store, selection.filter);
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

/**
 * The deliveries a filter names, as `store.replay` takes them: its `limit` counts replayable ones only, oldest
 * id first. Without a state (with `includeDelivered`) that is dead and delivered ones, each read up to the
 * limit: reading every state up to the limit and dropping held ones after it would list fewer than replay
 * re-queues, or others.
 */
async function findFiltered(store: Pick<Store, 'findDeliveries'>, filter: DeliveryFilter): Promise<StoredDelivery[]> {
  const limit = filter.limit ?? Number.MAX_SAFE_INTEGER;
  if (filter.state !== undefined) return store.findDeliveries({ ...filter, limit });
  const [dead, delivered] = await Promise.all([
    store.findDeliveries({ ...filter, state: 'dead', limit }),
    store.findDeliveries({ ...filter, state: 'delivered', limit }),
  ]);
  const byId = (a: StoredDelivery, b: StoredDelivery) => (parseDeliveryId(a.id) ?? 0) - (parseDeliveryId(b.id) ?? 0);
  return [...dead, ...delivered].sort(byId).slice(0, limit);
}

/** The sentence that says what was left out and how to include it (`how`: the flag or field to use). */
export function skippedDeliveredNote(skipped: readonly string[], how: string): string {
  return (
    `left ${skipped.length} delivered ${skipped.length === 1 ? 'delivery' : 'deliveries'} alone ` +
    `(${skipped.join(' ')}): the receiver already has ${skipped.length === 1 ? 'it' : 'them'}; ${how} to send ` +
    `${skipped.length === 1 ? 'it' : 'them'} again, with a new Idempotency-Key`
  );
}
