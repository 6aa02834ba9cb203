import type { Envelope } from '../ingest/envelope.js';
import type { CompiledRules, TargetSpec } from '../rules/rules.js';
import { defaultCorrelationKey } from './default-correlation-key.js';
import { followTargets, type FollowedTarget } from './follow-targets.js';
import { usesLifecycle } from './uses-lifecycle.js';

/** As the incident record cuts its key (incident-facts.ts): the key deliveries are followed by. */
const MAX_KEY_LENGTH = 200;

/**
 * The targets an event follows its incident to, among `reached` (the targets its incident reached before;
 * at ingest every target, which the journal then narrows), with each one's `follow:` setting from the rules;
 * `via` names the route that first sent the incident to a target, where the journal says.
 * Without one, a target follows when it keeps a lifecycle (`requests:`, PagerDuty, a Slack thread) or orders a
 * `key:`: the targets with something to finish. A plain webhook or mail target would turn a resolve into a new
 * message, or a new ticket, nobody asked for; `follow: true` opts it in.
 */
export function followCandidates(
  rules: CompiledRules,
  envelope: Envelope,
  routed: readonly string[],
  reached: Iterable<string> = rules.targets.keys(),
  via: ReadonlyMap<string, string | undefined> = new Map(),
): FollowedTarget[] {
  const key = defaultCorrelationKey(envelope.event, envelope.data)?.slice(0, MAX_KEY_LENGTH) ?? null;
  if (key === null) return [];
  const known = [...reached].flatMap((target) => {
    const spec = rules.targets.get(target);
    return spec === undefined ? [] : [{ target, follow: spec.follow ?? keepsLifecycle(spec), via: via.get(target) }];
  });
  return followTargets(envelope.event, key, routed, known);
}

function keepsLifecycle(spec: TargetSpec): boolean {
  return usesLifecycle(spec) || (spec.correlationKey !== null && spec.correlationKey !== undefined);
}
