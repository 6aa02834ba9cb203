import type { RequestHandler, Router } from 'express';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { requestKey } from './create-admin-auth.js';
import { parseReplayRequest } from './parse-replay-request.js';
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

  router.post('/api/v1/deliveries/:id/replay', replay, async (req, res) => {
    const id = String(req.params.id);
    const delivery = await deps.store.getDelivery(id);
    if (delivery === undefined) throw new SwitchyardError('not_found', `no delivery ${id}`, { status: 404 });
    const ids = delivery.state === 'pending' ? [] : await deps.store.replay({ ids: [id] }, deps.clock.now());
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
    const { filter, dryRun } = parseReplayRequest(req.body ?? {}, deps.clock.now());
    if (dryRun) {
      const found = await deps.store.findDeliveries({ ...filter, limit: filter.limit ?? Number.MAX_SAFE_INTEGER });
      const ids = found.map((d) => d.id);
      res.json({ dryRun: true, count: ids.length, ids });
      return;
    }
    const ids = await deps.store.replay({ filter }, deps.clock.now());
    requeued(requestKey(res).name, ids, { filter: describeFilter(filter) });
    res.json({ dryRun: false, count: ids.length, ids });
  });
}

/** The filter for the log line, without undefined fields. */
function describeFilter(filter: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
}
