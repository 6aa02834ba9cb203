import { HELD_STATES } from '../store/delivery-state.js';
import type { CompiledRules } from '../rules/rules.js';
import type { Store } from '../store/store.js';

/**
 * States of a delivery held back before it was sent, or skipped (never sent): the target did not see the
 * incident through it.
 */
const NOT_SEEN: ReadonlySet<string> = new Set([...HELD_STATES.filter((state) => state !== 'grouped'), 'skipped']);

/**
 * The targets an incident reached, as the ingest path reads them (reached-targets-sql.ts), from the journal's
 * history of every source's incident with that key (for `switchyard route --config` and the route tester,
 * which know no source), each with the route that sent it its first delivery: of the matched routes stored
 * with that delivery's event, the first whose `to` names the target in `rules` (absent when none does now).
 */
export async function readReachedTargets(
  store: Pick<Store, 'findIncidents' | 'incidentHistory' | 'getEvent'>,
  rules: Pick<CompiledRules, 'routes'>,
  key: string,
): Promise<Map<string, string | undefined>> {
  const reached = new Map<string, string | undefined>();
  for (const record of await store.findIncidents({ key, limit: 100 })) {
    const history = await store.incidentHistory(record.source, record.key);
    for (const delivery of history.deliveries) {
      if (NOT_SEEN.has(delivery.state) || reached.has(delivery.target)) continue;
      const event = await store.getEvent(delivery.eventId);
      const sent = rules.routes.find(
        (route) => event?.matchedRoutes.includes(route.name) === true && route.to.includes(delivery.target),
      );
      reached.set(delivery.target, sent?.name);
    }
  }
  return reached;
}
