import type { Envelope } from '../ingest/envelope.js';
import { readSeverity } from './match/read-severity.js';
import type { CompiledRules, MatchContext, RouteCondition, RouteDecision } from './rules.js';

/**
 * Decides where an event goes. Pure: routes are tried in file order among those whose `match.event`
 * accepts the kind (the index skips the rest); every matching route contributes its targets, each target
 * once, until a matching route with `stop: true`. The fallback applies only when no route matched.
 */
export function routeEvent(rules: CompiledRules, envelope: Envelope): RouteDecision {
  const { severity, rank } = readSeverity(envelope.data, rules.severities, rules.severityRanks);
  const context: MatchContext = { envelope, severity, rank };
  const matchedRoutes: string[] = [];
  const targets = new Set<string>();
  for (const route of rules.index.candidatesFor(envelope.event)) {
    if (!allHold(route.conditions, context)) continue;
    matchedRoutes.push(route.name);
    for (const target of route.to) targets.add(target);
    if (route.stop) break;
  }
  if (matchedRoutes.length === 0 && rules.fallback.length > 0) {
    return { severity, matchedRoutes, targets: [...rules.fallback], usedFallback: true };
  }
  return { severity, matchedRoutes, targets: [...targets], usedFallback: false };
}

// A plain loop: this runs for every candidate route of every event.
function allHold(conditions: readonly RouteCondition[], context: MatchContext): boolean {
  for (const condition of conditions) if (!condition.test(context)) return false;
  return true;
}
