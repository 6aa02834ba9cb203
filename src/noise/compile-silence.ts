import { compileEventCondition } from '../rules/compile/compile-event-condition.js';
import type { CompiledRegex } from '../rules/compile/compile-regex.js';
import { compileSeverityCondition, type SeverityConditionSpec } from '../rules/compile/compile-severity-condition.js';
import { compileWhereCondition } from '../rules/compile/compile-where-condition.js';
import type { CompiledRules, MatchContext, RouteCondition } from '../rules/rules.js';
import type { StoredSilence } from '../store/stored-silence.js';

export interface CompiledSilence {
  readonly silence: StoredSilence;
  /** True when the event matches every matcher (the time window is checked apart, by `findSilence`). */
  readonly matches: (context: MatchContext) => boolean;
  /** Whether `match.event` accepts this kind (lets the registry cache candidates per kind). */
  readonly matchesKind: (kind: string) => boolean;
}

export type CompileSilenceResult =
  | { readonly ok: true; readonly compiled: CompiledSilence }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Compiles a silence's matchers (a route's `match:`, schema-checked) with the route compilers, against the
 * severity levels of the rules in force: a silence means exactly what the same `match:` in a route means.
 */
export function compileSilence(
  silence: StoredSilence,
  rules: Pick<CompiledRules, 'severities' | 'severityRanks'>,
  regex: (pattern: string) => CompiledRegex,
): CompileSilenceResult {
  const problems: string[] = [];
  const { event, severity, where } = silence.matchers;
  const events = event === undefined ? null : typeof event === 'string' ? [event] : event;
  const kind = compileEventCondition(events);
  if (!kind.ok) for (const bad of kind.bad) problems.push(`match.event: invalid event pattern: ${bad.reason}`);
  const conditions: RouteCondition[] = [];
  if (severity !== undefined) {
    const compiled = compileSeverityCondition(severity as SeverityConditionSpec, rules.severities, rules.severityRanks);
    if (compiled.ok) conditions.push(compiled.condition);
    else {
      for (const { level } of compiled.unknownLevels) {
        problems.push(`match.severity: "${level}" is not one of the severities (${rules.severities.join(', ')})`);
      }
    }
  }
  (where ?? []).forEach((raw, index) => {
    const compiled = compileWhereCondition(raw, regex);
    if (compiled.ok) conditions.push(compiled.condition);
    else problems.push(`match.where[${index}].${compiled.key}: ${compiled.reason}`);
  });
  if (!kind.ok || problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    compiled: {
      silence,
      matches: (context) => kind.kind.test(context) && conditions.every((condition) => condition.test(context)),
      matchesKind: kind.kind.matchesKind,
    },
  };
}
