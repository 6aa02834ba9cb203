import type { RepairAudit } from './repair-journal.js';
import type { Store } from './store.js';

/**
^ * `replay --as create` (CLI and admin API): before the deliveries are re-queued, their keys' references are cleared (each clear in
 * the repair trail, with who and why), so the engine sends each as the first event of its key, the create: a
 * new ticket for an incident whose ticket is gone. Only `create` can be imposed this way: an update needs the
 * references a create captured, and a resolve is decided by the event's kind. Returns the problem, if any,
 * before anything changed.
 */
export async function clearForCreate(store: Store, ids: readonly string[], audit: RepairAudit): Promise<string | null> {
  const deliveries = await Promise.all(ids.map((id) => store.getDelivery(id)));
  const keyed: { target: string; key: string }[] = [];
  for (const [index, delivery] of deliveries.entries()) {
    const key = delivery?.correlationKey;
    if (delivery === undefined || key === null || key === undefined) {
      return `${ids[index] ?? ''} is not a delivery with a correlation key: --as create needs one`;
    }
    keyed.push({ target: delivery.target, key });
  }
  const reason = `replay as create: ${audit.reason}`;
  for (const { target, key } of keyed) await store.setReferences(target, key, null, { ...audit, reason });
  return null;
}
