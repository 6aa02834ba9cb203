import { describeValue } from '../match/describe-value.js';
import type { CompiledRegex } from './compile-regex.js';

/** One `where` operator applied to the value read from the event. */
export interface Operator {
  readonly test: (value: unknown) => boolean;
  /** The operator as a phrase that holds, e.g. `equals "x"`, for explanations of `not`. */
  readonly phrase: string;
  /** Why it does not hold for this value. */
  readonly failure: (value: unknown) => string;
}

export type OperatorResult =
  | { readonly ok: true; readonly operator: Operator }
  | { readonly ok: false; readonly key: string; readonly reason: string };

type Scalar = string | number | boolean | null;

/**
 * Compiles the one operator in a (schema-checked) condition. On a list value, equals / in / matches hold
 * when any element does: `{ field: data.agent.tags, equals: test }` reads "tagged test".
 */
export function compileOperator(
  condition: Readonly<Record<string, unknown>>,
  regex: (pattern: string) => CompiledRegex,
): OperatorResult {
  const anyOf = (check: (item: unknown) => boolean) => (value: unknown) =>
    Array.isArray(value) ? value.some(check) : check(value);
  const shown = (value: unknown) => describeValue(value);

  if ('equals' in condition) {
    const expected = condition.equals as Scalar;
    const phrase = `equals ${JSON.stringify(expected)}`;
    return ok(
      anyOf((item) => item === expected),
      phrase,
      (value) => `${shown(value)} does not equal ${JSON.stringify(expected)}`,
    );
  }
  if ('in' in condition) {
    const list = condition.in as Scalar[];
    const allowed = new Set<unknown>(list);
    const phrase = `is in ${JSON.stringify(list)}`;
    return ok(
      anyOf((item) => allowed.has(item)),
      phrase,
      (value) => `${shown(value)} is not in ${JSON.stringify(list)}`,
    );
  }
  if ('exists' in condition) {
    const wanted = condition.exists === true;
    const present = (value: unknown) => value !== undefined && value !== null;
    return ok(
      (value) => present(value) === wanted,
      wanted ? 'exists' : 'is absent',
      (value) =>
        wanted ? `${value === null ? 'null' : 'absent'}, but exists: true` : `${shown(value)}, but exists: false`,
    );
  }
  if ('matches' in condition) {
    const pattern = String(condition.matches);
    const compiled = regex(pattern);
    if (!compiled.ok) return { ok: false, key: 'matches', reason: `invalid regular expression: ${compiled.reason}` };
    const phrase = `matches /${pattern}/`;
    return ok(
      anyOf((item) => typeof item === 'string' && compiled.test(item)),
      phrase,
      (value) =>
        typeof value === 'string' || Array.isArray(value)
          ? `${shown(value)} does not match /${pattern}/`
          : `${shown(value)} is not a string, so it does not match /${pattern}/`,
    );
  }
  const inner = compileOperator(condition.not as Record<string, unknown>, regex);
  if (!inner.ok) return { ...inner, key: `not.${inner.key}` };
  const { operator } = inner;
  return ok(
    (value) => !operator.test(value),
    `not ${operator.phrase}`,
    (value) => `${shown(value)} ${operator.phrase}, and the condition is negated (not)`,
  );
}

function ok(test: Operator['test'], phrase: string, failure: Operator['failure']): OperatorResult {
  const explain = (value: unknown) =>
    value === undefined && phrase !== 'exists' && phrase !== 'is absent'
      ? `absent, so ${phrase} does not hold`
      : failure(value);
  return { ok: true, operator: { test, phrase, failure: explain } };
}
