import type { RequestHandler, Router } from 'express';
import { eventTitle } from '../../ingest/event-title.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { describeEventDetail } from './describe-event-detail.js';
import { findEventsPage } from './find-events-page.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';
import { parseListQuery } from './parse-list-query.js';
import { presentEvent, presentEventSummary } from './present-event.js';

/**
 * GET /api/v1/events (filters: source, kind, severity, q in the title, target, state of a delivery, since,
 * until) and /events/:id with its routing explanation and each delivery's attempts and references.
 */
export function addEventsRoutes(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/events', read, async (req, res) => {
    const query = parseListQuery(
      req.query,
      ['source', 'kind', 'severity', 'q', 'target', 'state', 'since', 'until'],
      deps.clock.now(),
    );
    const { filters, order, limit } = query;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'events', order);
    const page = await findEventsPage(
      deps.store,
      {
        source: filters.source,
        kind: filters.kind,
        severity: filters.severity,
        titleContains: filters.q,
        target: filters.target,
        deliveryState: filters.state,
        since: filters.since,
        until: filters.until,
        afterId: after?.id,
        order,
      },
      limit,
    );
    res.json({
      items: page.items.map(presentEventSummary),
      nextCursor: page.after === undefined ? null : encodeCursor({ list: 'events', order, id: page.after }),
      scanned:
        page.scanned === undefined
          ? null
          : { events: page.scanned.events, reachedAt: new Date(page.scanned.reachedAt).toISOString() },
    });
  });

  router.get('/api/v1/events/:id', read, async (req, res) => {
    const id = String(req.params.id);
    const event = await deps.store.getEvent(id);
    if (event === undefined) throw new SwitchyardError('not_found', `no event ${id}`, { status: 404 });
    const presented = presentEvent(event);
    const detail = await describeEventDetail(deps, event, presented.body);
    res.json({ ...presented, title: eventTitle(presented.body), ...detail });
  });
}
