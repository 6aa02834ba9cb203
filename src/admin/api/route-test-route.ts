import type { RequestHandler, Router } from 'express';
import { validateEnvelope } from '../../ingest/parse-envelope.js';
import { explainRoute } from '../../rules/explain-route.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';

/**
 * POST /api/v1/route-test: the body is an event envelope; the answer is how the rules in force would route it,
 * as `switchyard route --json` prints it. Nothing is stored or delivered. Target names only, never options.
 */
export function addRouteTestRoute(
  router: Router,
  deps: AdminApiDeps,
  read: RequestHandler,
  json: RequestHandler,
): void {
  router.post('/api/v1/route-test', read, json, (req, res) => {
    if (!req.is('application/json')) {
      throw new SwitchyardError('unsupported_media_type', 'send the event envelope as application/json', {
        status: 415,
      });
    }
    const envelope = validateEnvelope(req.body);
    const rules = deps.rules();
    const { steps, ...decision } = explainRoute(rules, envelope);
    res.json({ rules: { version: rules.version }, event: envelope.event, ...decision, routes: steps });
  });
}
