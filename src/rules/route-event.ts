import type { Envelope } from '../ingest/envelope.js';
import { readSeverity } from './match/read-severity.js';
import { inTimeInterval } from '../noise/time-interval.js';
import type { CompiledRules, MatchContext, NamedTimeInterval, RouteCondition, RouteDecision } from './rules.js';

/**
 * Decides where an event goes. Pure: routes are tried in file order among those whose `match.event`
 * accepts the kind (the index skips the rest); every matching route contributes its targets, each target
 * once, until a matching route with `stop: true`. The fallback applies only when no route matched.
 */
export function routeEvent(rules: CompiledRules, envelope: Envelope, now = Date.now()): RouteDecision {
  const { severity, rank } = readSeverity(envelope.data, rules.severities, rules.severityRanks);
  const context: MatchContext = { envelope, severity, rank };
  const matchedRoutes: string[] = [];
  const targets = new Set<string>();
  let muted: Record<string, string> | undefined;
  const sent = new Set<string>();
  for (const route of rules.index.candidatesFor(envelope.event)) {
    if (route.activeDuring !== undefined && activeInterval(route.activeDuring, now) === undefined) continue;
    if (!allHold(route.conditions, context)) continue;
    matchedRoutes.push(route.name);
    const mutedBy = route.mutedDuring === undefined ? undefined : activeInterval(route.mutedDuring, now);
    for (const target of route.to) {
      targets.add(target);
      if (mutedBy === undefined) sent.add(target);
      else if (muted?.[target] === undefined) (muted ??= {})[target] = mutedBy;
    }
    if (route.stop) break;
  }
  if (matchedRoutes.length === 0 && rules.fallback.length > 0) {
    return { severity, matchedRoutes, targets: [...rules.fallback], usedFallback: true };
  }
  // A target another, unmuted route sends the event to is not muted.
  if (muted !== undefined) for (const target of sent) delete muted[target];
  const decision = { severity, matchedRoutes, targets: [...targets], usedFallback: false };
  return muted !== undefined && Object.keys(muted).length > 0 ? { ...decision, muted } : decision;
}

/** The first of the intervals that holds at `now`, by name. */
export function activeInterval(intervals: readonly NamedTimeInterval[], now: number): string | undefined {
  return intervals.find((interval) => inTimeInterval(interval.ranges, now))?.name;
}

// A plain loop: this runs for every candidate route of every event.
function allHold(conditions: readonly RouteCondition[], context: MatchContext): boolean {
  for (const condition of conditions) if (!condition.test(context)) return false;
  return true;
}
