import type { Envelope } from '../ingest/envelope.js';
import type { CompiledRules } from '../rules/rules.js';
import { chooseSituation, RESOLVING_KINDS, type Situation } from './choose-situation.js';
import { correlationKeys } from './correlation-keys.js';
import { usesLifecycle } from './uses-lifecycle.js';

/** A delivery's correlation key, for the targets that keep a lifecycle or declare `key:`. */
export interface KeyedDelivery {
  readonly target: string;
  /** Null: the event has no key for this target (no incident id): it stands alone, its own first event. */
  readonly key: string | null;
}

/**
 * Which request a delivery would use (issue 14), for `route`, `test` and the admin route test. `create-or-update`
 * when that depends on history nobody gave (the CLI without a journal).
 */
export interface RequestExplanation extends KeyedDelivery {
  readonly request: Situation | 'create-or-update';
  /** Why, in words: `first event of key incident:inc_1`. */
  readonly because: string;
  /** The names (never the values) of the key's references, when its history is known and it has some. */
  readonly references?: readonly string[];
}

/** The routed targets that have a lifecycle or a key, with the key this event gets at each. */
export function keyedDeliveries(rules: CompiledRules, envelope: Envelope, targets: readonly string[]): KeyedDelivery[] {
  const keys = correlationKeys(rules, envelope, targets);
  return targets.flatMap((target, index) => {
    const spec = rules.targets.get(target);
    if (spec === undefined) return [];
    const keyed = usesLifecycle(spec) || (spec.correlationKey !== null && spec.correlationKey !== undefined);
    return keyed ? [{ target, key: keys?.[index] ?? null }] : [];
  });
}

/**
 * The request each keyed delivery would use. `history(target, key)` gives the key's references (null: nothing
 * delivered for it yet), or undefined when unknown.
 */
export function explainRequests(
  kind: string,
  deliveries: readonly KeyedDelivery[],
  history: (target: string, key: string) => Readonly<Record<string, string>> | null | undefined,
): RequestExplanation[] {
  return deliveries.map(({ target, key }): RequestExplanation => {
    if (RESOLVING_KINDS.has(kind)) {
      return {
        target,
        key,
        request: 'resolve',
        because: `${kind} ends ${key === null ? 'the situation' : `key ${key}`}`,
      };
    }
    if (key === null) return { target, key, request: 'create', because: 'no correlation key: the event stands alone' };
    const references = history(target, key);
    if (references === undefined) {
      return { target, key, request: 'create-or-update', because: 'the history of the key is not known here' };
    }
    const request = chooseSituation(kind, references);
    if (references === null) return { target, key, request, because: `nothing delivered yet for key ${key}` };
    const names = Object.keys(references);
    const held = names.length === 0 ? 'nothing captured' : `references ${names.join(', ')}`;
    return { target, key, request, because: `key ${key} was started (${held})`, references: names };
  });
}

/** One line of text: `jira  create (first event of key incident:inc_1) or update (later events)`. */
export function describeRequest(explanation: RequestExplanation): string {
  if (explanation.request === 'create-or-update') {
    return `create (first event of key ${explanation.key ?? ''}) or update (later events)`;
  }
  return `${explanation.request} (${explanation.because})`;
}
