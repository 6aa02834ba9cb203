import type { Request, RequestHandler, Router } from 'express';
import { describeHold } from '../../noise/describe-hold.js';
import { planReplay, skippedDeliveredNote } from '../../store/plan-replay.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { requestKey } from './create-admin-auth.js';
import { rejectUnknown } from './parse-filters.js';
import { parseIncludeDelivered, parseReplayRequest } from './parse-replay-request.js';
import { presentDelivery } from './present-delivery.js';

/**
 * POST /api/v1/deliveries/:id/replay and POST /api/v1/replay (replay scope): re-queue dead (or delivered)
 * deliveries as new attempts with a fresh retry budget, history kept, as `switchyard replay` does.
 * Every replay is logged with the key's name.
 */
export function addReplayRoutes(
  router: Router,
  deps: AdminApiDeps,
  replay: RequestHandler,
  json: RequestHandler,
): void {
  const requeued = (key: string, ids: readonly string[], what: Record<string, unknown>): void => {
    deps.log.info('deliveries re-queued through the admin API', { key, count: ids.length, ...what });
    if (ids.length > 0) deps.wakeDeliveries?.();
  };

  router.post('/api/v1/deliveries/:id/replay', replay, json, async (req, res) => {
    const id = String(req.params.id);
    const includeDelivered = parseOneReplay(req);
    const delivery = await deps.store.getDelivery(id);
    if (delivery === undefined) throw new SwitchyardError('not_found', `no delivery ${id}`, { status: 404 });
    const hold = describeHold(delivery.state, delivery.heldBy);
    if (hold !== undefined) {
      // Noise control kept it back on purpose; a replay would send what a silence or a throttle is there to stop.
      const message = `delivery ${id} is ${hold}: held deliveries are never replayed`;
      throw new SwitchyardError('held', message, { status: 409 });
    }
    if (delivery.state === 'skipped') {
      throw new SwitchyardError('skipped', `delivery ${id} was skipped: ${delivery.lastError ?? ''}`, { status: 409 });
    }
    if (delivery.state === 'delivered' && !includeDelivered) {
      const message = skippedDeliveredNote([id], 'send {"includeDelivered": true}');
      throw new SwitchyardError('delivered', message, { status: 409 });
    }
    const ids =
      delivery.state === 'pending' ? [] : await deps.store.replay({ ids: [id], includeDelivered }, deps.clock.now());
    if (ids.length === 0) {
      throw new SwitchyardError('already_pending', `delivery ${id} is pending: it is already queued`, { status: 409 });
    }
    requeued(requestKey(res).name, ids, { delivery: id });
    const after = await deps.store.getDelivery(id);
    res.json(after === undefined ? { id } : presentDelivery(after));
  });

  router.post('/api/v1/replay', replay, json, async (req, res) => {
    // No Content-Type: no body, which the filter check below refuses with a clearer message than 415.
    if (req.headers['content-type'] !== undefined && !req.is('application/json')) {
      throw new SwitchyardError('unsupported_media_type', 'send the filters as application/json', { status: 415 });
    }
    const { selection, filter, dryRun, includeDelivered } = parseReplayRequest(req.body ?? {}, deps.clock.now());
    const plan = await planReplay(deps.store, selection);
    const skipped = plan.skippedDelivered;
    const left =
      skipped.length === 0
        ? { skippedDelivered: 0 }
        : {
            skippedDelivered: skipped.length,
            message: skippedDeliveredNote(skipped, 'send "includeDelivered": true'),
          };
    if (dryRun) {
      res.json({ dryRun: true, count: plan.requeue.length, ids: plan.requeue, ...left });
      return;
    }
    const ids = await deps.store.replay(selection, deps.clock.now());
    const what = filter === undefined ? { selected: ids.length } : { filter: describeFilter(filter) };
    requeued(requestKey(res).name, ids, { ...what, includeDelivered });
    res.json({ dryRun: false, count: ids.length, ids, ...left });
  });
}

/** The optional body of a one-delivery replay: `{"includeDelivered": true}`, or nothing. */
function parseOneReplay(req: Request): boolean {
  const body: unknown = req.body;
  if (body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0)) {
    return false;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SwitchyardError('invalid_filter', 'send nothing, or {"includeDelivered": true}', { status: 400 });
  }
  rejectUnknown(body as Record<string, unknown>, ['includeDelivered'], 'field');
  return parseIncludeDelivered(body as Record<string, unknown>);
}

/** The filter for the log line, without undefined fields. */
function describeFilter(filter: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
}
