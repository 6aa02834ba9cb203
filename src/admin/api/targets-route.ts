import type { RequestHandler, Router } from 'express';
import type { AdminApiDeps } from './admin-api-deps.js';
import { describeTargets } from './describe-targets.js';

/** GET /api/v1/targets: per target, pending and dead counts from the journal, attempts in flight, circuit. */
export function addTargetsRoute(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/targets', read, async (_req, res) => {
    const counts = await deps.store.countByTarget();
    res.json({ items: describeTargets(deps.rules(), deps.engineStatus(), counts) });
  });
}
