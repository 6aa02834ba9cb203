import type { RequestHandler, Router } from 'express';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';
import { parseListQuery } from './parse-list-query.js';
import { presentDelivery } from './present-delivery.js';
import { presentEvent, presentEventSummary } from './present-event.js';

/** GET /api/v1/events (filters: source, kind, target, state of a delivery, since, until) and /events/:id. */
export function addEventsRoutes(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/events', read, async (req, res) => {
    const query = parseListQuery(req.query, ['source', 'kind', 'target', 'state', 'since', 'until'], deps.clock.now());
    const { filters, order, limit } = query;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'events', order);
    // One more than asked tells whether another page exists without a count query.
    const found = await deps.store.findEvents({
      source: filters.source,
      kind: filters.kind,
      target: filters.target,
      deliveryState: filters.state,
      since: filters.since,
      until: filters.until,
      afterId: after?.id,
      order,
      limit: limit + 1,
    });
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    res.json({
      items: page.map(presentEventSummary),
      nextCursor:
        found.length > limit && last !== undefined ? encodeCursor({ list: 'events', order, id: last.id }) : null,
    });
  });

  router.get('/api/v1/events/:id', read, async (req, res) => {
    const id = String(req.params.id);
    const event = await deps.store.getEvent(id);
    if (event === undefined) throw new SwitchyardError('not_found', `no event ${id}`, { status: 404 });
    const deliveries = await deps.store.listDeliveries(id);
    res.json({ ...presentEvent(event), deliveries: deliveries.map(presentDelivery) });
  });
}
