import type { Envelope } from '../ingest/envelope.js';
import { readSeverity } from './match/read-severity.js';
import { activeInterval, routeEvent } from './route-event.js';
import type { CompiledRules, MatchContext, RouteDecision } from './rules.js';

export interface RouteStep {
  readonly route: string;
  readonly line: number;
  /** `not-evaluated`: an earlier matching route had `stop: true`. */
  readonly outcome: 'matched' | 'not-matched' | 'not-evaluated';
  /** For `not-matched`: the first condition that failed, as text (`severity: "medium" is below at_least high`). */
  readonly failed: string | null;
  readonly to: readonly string[];
  readonly stop: boolean;
  /** Matched, but muted now by this time interval (`muted_during`): its deliveries would be recorded muted. */
  readonly mutedBy?: string;
}

export interface RouteExplanation extends RouteDecision {
  /** Every route, in file order. */
  readonly steps: readonly RouteStep[];
  /** The matching `stop: true` route that ended evaluation, if any. */
  readonly stoppedBy: string | null;
  readonly fallback: readonly string[];
}

/**
 * The same decision as `routeEvent`, with the reasoning: each route in order, matched or not, and for a
 * route that did not match the first condition (event, then severity, then `where` in order) that failed.
 * Walks all routes rather than the index, since it is for people, not for the ingest path.
 */
export function explainRoute(rules: CompiledRules, envelope: Envelope, now = Date.now()): RouteExplanation {
  const { severity, rank } = readSeverity(envelope.data, rules.severities, rules.severityRanks);
  const context: MatchContext = { envelope, severity, rank };
  const steps: RouteStep[] = [];
  const matchedRoutes: string[] = [];
  const targets = new Set<string>();
  let stoppedBy: string | null = null;
  for (const route of rules.routes) {
    const base = { route: route.name, line: route.line, to: route.to, stop: route.stop };
    if (stoppedBy !== null) {
      steps.push({ ...base, outcome: 'not-evaluated', failed: null });
      continue;
    }
    if (route.activeDuring !== undefined && activeInterval(route.activeDuring, now) === undefined) {
      const names = route.activeDuring.map((interval) => interval.name).join(', ');
      steps.push({ ...base, outcome: 'not-matched', failed: `not active: outside ${names}` });
      continue;
    }
    const failing = [route.kind, ...route.conditions].find((condition) => !condition.test(context));
    if (failing !== undefined) {
      steps.push({ ...base, outcome: 'not-matched', failed: failing.explain(context) });
      continue;
    }
    const mutedBy = route.mutedDuring === undefined ? undefined : activeInterval(route.mutedDuring, now);
    steps.push({ ...base, outcome: 'matched', failed: null, ...(mutedBy !== undefined && { mutedBy }) });
    matchedRoutes.push(route.name);
    for (const target of route.to) targets.add(target);
    if (route.stop) stoppedBy = route.name;
  }
  const usedFallback = matchedRoutes.length === 0 && rules.fallback.length > 0;
  const { muted } = routeEvent(rules, envelope, now);
  return {
    ...(muted !== undefined && { muted }),
    severity,
    matchedRoutes,
    targets: usedFallback ? [...rules.fallback] : [...targets],
    usedFallback,
    steps,
    stoppedBy,
    fallback: rules.fallback,
  };
}
