import type { RequestHandler, Router } from 'express';
import { validateEnvelope } from '../../ingest/parse-envelope.js';
import { explainSilence } from '../../noise/explain-silence.js';
import { explainRoute } from '../../rules/explain-route.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';

/**
 * POST /api/v1/route-test: the body is an event envelope; the answer is how the rules in force would route it,
 * as `switchyard route --json` prints it, with `silencedBy`: the silence in force that would hold its deliveries
 * (or null). Nothing is stored or delivered. Target names only, never options.
 */
export function addRouteTestRoute(
  router: Router,
  deps: AdminApiDeps,
  read: RequestHandler,
  json: RequestHandler,
): void {
  router.post('/api/v1/route-test', read, json, async (req, res) => {
    if (!req.is('application/json')) {
      throw new SwitchyardError('unsupported_media_type', 'send the event envelope as application/json', {
        status: 415,
      });
    }
    const envelope = validateEnvelope(req.body);
    const rules = deps.rules();
    const { steps, ...decision } = explainRoute(rules, envelope);
    const now = deps.clock.now();
    const silences = await deps.store.findSilences({ activeAt: now });
    const silencedBy = decision.targets.length === 0 ? null : explainSilence(silences, rules, envelope, now);
    res.json({ rules: { version: rules.version }, event: envelope.event, ...decision, routes: steps, silencedBy });
  });
}
