import express, { type RequestHandler, type Router } from 'express';
import type { AdminApiDeps } from './admin-api-deps.js';
import { createAdminAuth } from './create-admin-auth.js';
import { addDeliveriesRoutes } from './deliveries-routes.js';
import { addEventsRoutes } from './events-routes.js';
import { handleApiError } from './handle-api-error.js';
import { addReplayRoutes } from './replay-routes.js';
import { addRouteTestRoute } from './route-test-route.js';
import { addRulesRoutes } from './rules-routes.js';
import { addSilencesRoutes } from './silences-routes.js';
import { sendApiError } from './send-api-error.js';
import { addSessionRoutes, addSignInRoute } from './session-routes.js';
import { addTargetsRoute } from './targets-route.js';
import { addReferencesRoute } from './references-route.js';
import { addIncidentsRoutes } from './incidents-routes.js';
import { addChangesRoute } from './changes-route.js';
import { addOverviewRoute } from './overview-route.js';
import { addRulesCheckRoute } from './rules-check-route.js';
import { addRepairRoutes } from './repair-routes.js';

/** Route tests carry one event envelope; ingest's default `max_body` is the same. */
const JSON_LIMIT = '1mb';

/**
 * The admin API under `/api/v1`: JSON reads of the journal, rules and target status (scope `read`), replay
 * and rules reload (scope `replay`), silences (scope `silence`), repairs of a key's line (scope `repair`). Every request authenticates first, unknown paths included, and a body is
 * parsed only after that (but the console's sign-in, whose body is the key). With `sessions` (the admin listener
 * only), the console's session cookie authenticates too. Mount it at `/` on its own listener, or under a prefix (`/admin`) on the main one.
 */
export function createAdminApi(deps: AdminApiDeps): Router {
  const router = express.Router();
  const auth = createAdminAuth(deps);
  const read = auth.requireScope('read');
  const replay = auth.requireScope('replay');
  const silence = auth.requireScope('silence');
  const repair = auth.requireScope('repair');
  const json = express.json({ limit: JSON_LIMIT });
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  };

  const { sessions } = deps;
  if (sessions !== undefined) addSignInRoute(router, { ...deps, sessions }, noStore);
  router.use('/api', noStore, auth.authenticate);
  if (sessions !== undefined) addSessionRoutes(router, { sessions });
  addEventsRoutes(router, deps, read);
  addDeliveriesRoutes(router, deps, read);
  addRulesRoutes(router, deps, { read, replay });
  addTargetsRoute(router, deps, read);
  addReferencesRoute(router, deps, read);
  addIncidentsRoutes(router, deps, read);
  addRouteTestRoute(router, deps, read, json);
  addOverviewRoute(router, deps, read);
  addChangesRoute(router, deps, read);
  addRulesCheckRoute(router, deps, read, json);
  addReplayRoutes(router, deps, replay, json);
  addSilencesRoutes(router, deps, { read, silence }, json);
  addRepairRoutes(router, deps, { read, repair }, json);
  router.use('/api', (_req, res) => {
    sendApiError(res, 404, 'not_found', 'no such admin API route');
  });
  router.use(handleApiError(deps.log));
  return router;
}
