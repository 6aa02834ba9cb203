import type { RouteCondition } from '../rules.js';
import { readField } from '../match/read-field.js';
import type { CompiledRegex } from './compile-regex.js';
import { compileOperator } from './compile-operator.js';

export type WhereResult =
  | { readonly ok: true; readonly condition: RouteCondition }
  | { readonly ok: false; readonly key: string; readonly reason: string };

/** Compiles one schema-checked `where` entry: `{ field, <one operator> }`. */
export function compileWhereCondition(
  raw: Readonly<Record<string, unknown>>,
  regex: (pattern: string) => CompiledRegex,
): WhereResult {
  const field = String(raw.field);
  const path = field.split('.');
  const compiled = compileOperator(raw, regex);
  if (!compiled.ok) return compiled;
  const { operator } = compiled;
  return {
    ok: true,
    condition: {
      test: (context) => operator.test(readField(context.envelope, path)),
      explain: (context) => `${field}: ${operator.failure(readField(context.envelope, path))}`,
    },
  };
}
