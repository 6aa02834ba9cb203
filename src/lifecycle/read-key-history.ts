import type { Store } from '../store/store.js';
import type { KeyedDelivery } from './explain-requests.js';

/** The history `explainRequests` reads. */
export type KeyHistory = (target: string, key: string) => Readonly<Record<string, string>> | null;

/**
 * Issue 14: the journal's references for the keys of one event's deliveries (a handful of lookups), as the
 * history `explainRequests` asks for: null for a key nothing was delivered for yet.
 */
export async function readKeyHistory(
  store: Pick<Store, 'findReferences'>,
  keyed: readonly KeyedDelivery[],
): Promise<KeyHistory> {
  const found = new Map<string, Readonly<Record<string, string>>>();
  for (const { target, key } of keyed) {
    if (key === null) continue;
    const [stored] = await store.findReferences({ target, key, limit: 1 });
    if (stored !== undefined) found.set(`${target}\n${stored.key}`, stored.values);
  }
  return (target, key) => found.get(`${target}\n${key}`) ?? null;
}
