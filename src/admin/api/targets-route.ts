import type { RequestHandler, Router } from 'express';
import type { AdminApiDeps } from './admin-api-deps.js';
import type { TargetHealth } from '../../store/console-journal.js';
import { describeTargets } from './describe-targets.js';

/**
 * GET /api/v1/targets: per target, pending and dead counts from the journal, attempts in flight, circuit. The
 * counts read the pending and dead deliveries only (targetHealth), not every delivery: 50 ms rather than most of
 * a second with a million in the journal. A target the rules no longer define is listed while it has some.
 */
export function addTargetsRoute(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/targets', read, async (_req, res) => {
    const health = await deps.store.targetHealth();
    res.json({ items: describeTargets(deps.rules(), deps.engineStatus(), targetCounts(health)) });
  });
}

/** Pending and dead counts as describeTargets takes them. */
export function targetCounts(health: readonly TargetHealth[]) {
  return health.flatMap((h) => [
    { target: h.target, state: 'pending' as const, count: h.pending },
    { target: h.target, state: 'dead' as const, count: h.dead },
  ]);
}
