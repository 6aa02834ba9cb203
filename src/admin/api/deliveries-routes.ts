import type { Request, RequestHandler, Response, Router } from 'express';
import type { DeliveryState } from '../../store/store.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';
import type { FilterName } from './parse-filters.js';
import { parseListQuery } from './parse-list-query.js';
import { presentAttempt, presentDelivery } from './present-delivery.js';

/**
 * GET /api/v1/deliveries (filters: target, state, kind, event, heldBy, since, until), /dead-letters (also
 * `reason`: text in the last error; dead letters are bounded by retention, so no scan limit) and /deliveries/:id.
 */
export function addDeliveriesRoutes(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  const list =
    (allowed: readonly FilterName[], state?: DeliveryState) =>
    async (req: Request, res: Response): Promise<void> => {
      const query = parseListQuery(req.query, allowed, deps.clock.now());
      const { filters, order, limit } = query;
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'deliveries', order);
      // One more than asked tells whether another page exists without a count query.
      const found = await deps.store.findDeliveries({
        state: state ?? filters.state,
        target: filters.target,
        kind: filters.kind,
        eventId: filters.event,
        heldBy: filters.heldBy,
        lastErrorContains: filters.reason,
        since: filters.since,
        until: filters.until,
        after: after === undefined ? undefined : { id: after.id, createdAt: after.at ?? 0 },
        order,
        limit: limit + 1,
      });
      const page = found.slice(0, limit);
      const last = page[page.length - 1];
      const held = heldUntil(deps);
      res.json({
        items: page.map((delivery) => presentDelivery(delivery, held.get(delivery.target))),
        nextCursor:
          found.length > limit && last !== undefined
            ? encodeCursor({ list: 'deliveries', order, id: last.id, at: last.createdAt })
            : null,
      });
    };
  router.get('/api/v1/deliveries', read, list(['target', 'state', 'kind', 'event', 'heldBy', 'since', 'until']));
  // Dead letters are the deliveries in state dead; the same cursor works in both listings.
  router.get('/api/v1/dead-letters', read, list(['target', 'kind', 'event', 'reason', 'since', 'until'], 'dead'));

  router.get('/api/v1/deliveries/:id', read, async (req, res) => {
    const id = String(req.params.id);
    const delivery = await deps.store.getDelivery(id);
    if (delivery === undefined) throw new SwitchyardError('not_found', `no delivery ${id}`, { status: 404 });
    const attempts = await deps.store.listAttempts(id);
    const held = heldUntil(deps).get(delivery.target);
    res.json({ ...presentDelivery(delivery, held), history: attempts.map(presentAttempt) });
  });
}

/** Per target held back by an open circuit or a `Retry-After` pause: until when (the engine's view). */
function heldUntil(deps: AdminApiDeps): Map<string, number> {
  return new Map(
    deps.engineStatus().map((lane) => [lane.target, Math.max(lane.nextProbeAt ?? 0, lane.pausedUntil ?? 0)]),
  );
}
