import type { RequestHandler, Router } from 'express';
import { validateEnvelope } from '../../ingest/parse-envelope.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { explainEnvelope } from './explain-envelope.js';

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * POST /api/v1/route-test[?at=ISO 8601]: the body is an event envelope, routed as if received `at` (default now); the answer is how the rules in force would route it,
 * as `switchyard route --json` prints it, with `silencedBy`: the silence in force that would hold its deliveries
 * (or null), and `requests`: for each delivery to a lifecycle or keyed target, its key and the request it would use
 * given the key's references in the journal (names only). Nothing is stored or delivered. Target names only, never options.
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
    const at = req.query.at;
    const now = typeof at === 'string' ? Date.parse(at) : deps.clock.now();
    if (at !== undefined && (typeof at !== 'string' || !ISO_WITH_ZONE.test(at) || Number.isNaN(now))) {
      throw new SwitchyardError('invalid_filter', 'at: give an ISO 8601 date-time with Z or an offset', {
        status: 400,
      });
    }
    // The daemon has the journal: each keyed delivery's request is known from its key's stored references.
    res.json(await explainEnvelope(deps.store, deps.rules(), validateEnvelope(req.body), now));
  });
}
