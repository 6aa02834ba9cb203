import type { RequestHandler, Router } from 'express';
import { DELIVERY_STATES } from '../../store/store.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { chartBuckets } from './chart-buckets.js';
import { describeTargets } from './describe-targets.js';
import { presentProblems } from './present-problems.js';
import { targetCounts } from './targets-route.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const MAX_HOURS = 48;

/**
 * GET /api/v1/overview?hours=6: the console's first page in one request. Events by kind and severity per
 * bucket of `bucketMinutes` (chart-buckets.ts) and deliveries by state cover the last `hours` (1..48; deliveries created in that window), each
 * target its pending and dead deliveries, retrying ones and last error, and the rules in force with how the
 * last reload went. Every part reads a bounded slice of the journal (console-sql.ts says which index).
 */
export function addOverviewRoute(router: Router, deps: AdminApiDeps, read: RequestHandler): void {
  router.get('/api/v1/overview', read, async (req, res) => {
    const hours = parseHours(req.query.hours);
    const now = deps.clock.now();
    const since = now - hours * 3_600_000;
    const buckets = chartBuckets(now, hours);
    const [perMinute, byState, health] = await Promise.all([
      deps.store.eventsPerMinute(buckets.start, buckets.bucketMinutes * 60_000),
      deps.store.countDeliveriesByState(since),
      deps.store.targetHealth(),
    ]);
    const rules = deps.rules();
    const history = deps.rulesHistory?.();
    const lastReload = history?.lastReload ?? null;
    const targets = describeTargets(rules, deps.engineStatus(), targetCounts(health)).map((target) => {
      const of = health.find((h) => h.target === target.name);
      const at = of?.lastErrorAt ?? null;
      return { ...target, retrying: of?.retrying ?? 0, lastError: of?.lastError ?? null, lastErrorAt: at && iso(at) };
    });
    res.json({
      now: iso(now),
      hours,
      rules: {
        version: rules.version,
        loadedAt: history === undefined ? null : iso(history.loadedAt),
        lastReload:
          lastReload === null
            ? null
            : {
                ok: lastReload.ok,
                at: iso(lastReload.at),
                problems: presentProblems(lastReload.problems),
              },
      },
      bucketMinutes: buckets.bucketMinutes,
      eventsPerMinute: perMinute.map((row) => ({ ...row, minute: iso(row.minute) })),
      deliveriesByState: Object.fromEntries(
        DELIVERY_STATES.map((state) => [state, byState.find((row) => row.state === state)?.count ?? 0]),
      ),
      targets,
    });
  });
}

function parseHours(value: unknown): number {
  if (value === undefined) return 6;
  const hours = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(hours >= 1 && hours <= MAX_HOURS)) {
    throw new SwitchyardError('invalid_filter', `hours: must be an integer from 1 to ${MAX_HOURS}`, { status: 400 });
  }
  return hours;
}
