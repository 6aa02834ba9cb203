import { HELD_STATES } from '../store/delivery-state.js';
import type { Store } from '../store/store.js';

/** States of a delivery held back before it was sent: the target did not see the incident through it. */
const NOT_SEEN: ReadonlySet<string> = new Set(HELD_STATES.filter((state) => state !== 'grouped'));

/**
 * The targets an incident reached, as the ingest path reads them (reached-targets-sql.ts), from the journal's
 * history of every source's incident with that key: for `switchyard route --config`, which knows no source.
 */
export async function readReachedTargets(
  store: Pick<Store, 'findIncidents' | 'incidentHistory'>,
  key: string,
): Promise<Set<string>> {
  const reached = new Set<string>();
  for (const record of await store.findIncidents({ key, limit: 100 })) {
    const history = await store.incidentHistory(record.source, record.key);
    for (const delivery of history.deliveries) if (!NOT_SEEN.has(delivery.state)) reached.add(delivery.target);
  }
  return reached;
}
