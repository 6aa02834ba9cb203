import type { CompiledRoute } from '../rules.js';
import { compileEventPattern } from './compile-event-pattern.js';

export type EventConditionResult =
  | { readonly ok: true; readonly kind: CompiledRoute['kind']; readonly matchesAll: boolean }
  | { readonly ok: false; readonly bad: readonly { readonly index: number; readonly reason: string }[] };

/** Compiles `match.event` (one pattern or a list; null when absent) into the route's kind condition. */
export function compileEventCondition(patterns: readonly string[] | null): EventConditionResult {
  if (patterns === null) return { ok: true, matchesAll: true, kind: matchEverything };
  const compiled = patterns.map((pattern) => compileEventPattern(pattern));
  const bad = compiled.flatMap((result, index) => (result.ok ? [] : [{ index, reason: result.reason }]));
  if (bad.length > 0) return { ok: false, bad };
  const matchers = compiled.flatMap((result) => (result.ok ? [result.matches] : []));
  const matchesAll = compiled.some((result) => result.ok && result.form === 'all');
  const exact = new Set(patterns);
  const allExact = compiled.every((result) => result.ok && result.form === 'exact');
  const matchesKind = allExact
    ? (kind: string) => exact.has(kind)
    : (kind: string) => matchers.some((matches) => matches(kind));
  const shown = patterns.join(', ');
  return {
    ok: true,
    matchesAll,
    kind: {
      matchesKind,
      test: (context) => matchesKind(context.envelope.event),
      explain: (context) => `event: ${JSON.stringify(context.envelope.event)} does not match ${shown}`,
    },
  };
}

const matchEverything: CompiledRoute['kind'] = {
  matchesKind: () => true,
  test: () => true,
  explain: () => 'event: matches every kind',
};
