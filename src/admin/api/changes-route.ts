import type { RequestHandler, Router } from 'express';
import type { ChangePosition } from '../../store/console-journal.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { presentDelivery } from './present-delivery.js';
import { presentEventSummary } from './present-event.js';

const MAX_EVENTS = 100;
const MAX_DELIVERIES = 200;
/**
 * Changes are shown once they are this old. An event's id and a delivery's updatedAt are stamped just before
 * their transaction commits (ingest's group commit, the engine's record of an attempt; on PostgreSQL, by
 * several instances): a change stamped a moment earlier can commit after one already shown, and a cursor past
 * it would never show it. Two seconds covers that and a little clock skew between instances; the page's view
 * is that much behind.
 */
export const CHANGES_LAG_MS = 2_000;

/**
 * GET /api/v1/changes?after=<cursor>: what changed since the cursor, for the console's live updates (polled
 * every 2 s while the page is visible). At most 100 events newer than the cursor's (oldest first) and 200
 * deliveries whose `updatedAt` is later, by (updatedAt, id); when more changed, the cursor stops at the last one
 * returned, `more` is true, and the next poll (at once) continues. Changes show once CHANGES_LAG_MS old. Without `after`: empty lists and the current cursor. Two index range
 * reads (the events' primary key, deliveries_by_update), whatever the journal's size.
 */
export function addChangesRoute(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/changes', read, async (req, res) => {
    const after = req.query.after;
    const before = deps.clock.now() - CHANGES_LAG_MS;
    if (after === undefined) {
      res.json({ events: [], deliveries: [], cursor: encode(await deps.store.latestChange(before)), more: false });
      return;
    }
    if (typeof after !== 'string') throw invalid();
    const position = decode(after);
    const [events, deliveries] = await Promise.all([
      deps.store.findEvents({
        afterId: position.eventId ?? undefined,
        until: before,
        order: 'oldest',
        limit: MAX_EVENTS,
      }),
      deps.store.findChangedDeliveries(position.delivery ?? { updatedAt: -1, id: 'dlv_0' }, before, MAX_DELIVERIES),
    ]);
    const lastEvent = events[events.length - 1];
    const lastDelivery = deliveries[deliveries.length - 1];
    res.json({
      events: events.map(presentEventSummary),
      deliveries: deliveries.map((delivery) => presentDelivery(delivery)),
      cursor: encode({
        eventId: lastEvent?.id ?? position.eventId,
        delivery:
          lastDelivery === undefined ? position.delivery : { updatedAt: lastDelivery.updatedAt, id: lastDelivery.id },
      }),
      more: events.length === MAX_EVENTS || deliveries.length === MAX_DELIVERIES,
    });
  });
}

function encode(position: ChangePosition): string {
  const { eventId, delivery } = position;
  return Buffer.from(JSON.stringify(['changes', eventId, delivery?.updatedAt ?? null, delivery?.id ?? null])).toString(
    'base64url',
  );
}

function decode(cursor: string): ChangePosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 4 || value[0] !== 'changes') throw invalid();
  const [, eventId, updatedAt, id] = value as unknown[];
  if (!(eventId === null || typeof eventId === 'string')) throw invalid();
  if (updatedAt === null && id === null) return { eventId, delivery: null };
  if (!Number.isSafeInteger(updatedAt) || typeof id !== 'string') throw invalid();
  return { eventId, delivery: { updatedAt: updatedAt as number, id } };
}

function invalid(): SwitchyardError {
  return new SwitchyardError('invalid_cursor', 'after: not a cursor GET /changes gave out', { status: 400 });
}
