import type { Envelope } from '../ingest/envelope.js';
import type { CompiledRules } from '../rules/rules.js';
import { defaultCorrelationKey } from './default-correlation-key.js';
import { followTargets, type FollowedTarget } from './follow-targets.js';

/** As the incident record cuts its key (incident-facts.ts): the key deliveries are followed by. */
const MAX_KEY_LENGTH = 200;

/**
 * The targets an event follows its incident to, among `reached` (the targets its incident reached before;
 * at ingest every target, which the journal then narrows), with each one's `follow:` setting from the rules.
 */
export function followCandidates(
  rules: CompiledRules,
  envelope: Envelope,
  routed: readonly string[],
  reached: Iterable<string> = rules.targets.keys(),
): FollowedTarget[] {
  const key = defaultCorrelationKey(envelope.event, envelope.data)?.slice(0, MAX_KEY_LENGTH) ?? null;
  if (key === null) return [];
  const known = [...reached].flatMap((target) => {
    const spec = rules.targets.get(target);
    return spec === undefined ? [] : [{ target, follow: spec.follow !== false }];
  });
  return followTargets(envelope.event, key, routed, known);
}
