import type { PathSegment } from '../source/locate-path.js';
import type { Locator } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';
import { expandEnvRefs } from './expand-env-refs.js';
import { credentialPairs, targetOptionSecrets } from './target-option-secrets.js';

export interface TargetEnvResult {
  /** The document with `${VAR}` references in target options expanded. */
  readonly value: unknown;
  /** What to mask of the substituted values (see `targetOptionSecrets`), with the credential pairs. */
  readonly secrets: readonly string[];
  /** Values that still hold an unexpanded reference (missing or malformed); schema checks skip them. */
  readonly isUnresolved: (path: readonly PathSegment[]) => boolean;
  /** Which variables a value came from, e.g. `from ${SLACK_URL}`. */
  readonly originOf: (path: readonly PathSegment[]) => string | undefined;
}

/**
 * Expands references in target options only. Routes are printed by `switchyard route` and `test`, so a
 * secret expanded there would end up on a terminal or in CI logs; a reference outside targets gets a warning.
 * With `withholdValues`, references are checked (set or not) but left as written, as unresolved ones are:
 * for rules text from someone who may not read the environment (the console's rule tester).
 */
export function expandTargetEnv(
  document: unknown,
  env: Readonly<Record<string, string | undefined>>,
  requireEnv: boolean,
  locate: Locator,
  sink: ProblemSink,
  withholdValues = false,
): TargetEnvResult {
  const secrets = new Set<string>();
  const unresolved = new Set<string>();
  const origins = new Map<string, string>();
  const fromEnv = new Set<string>();

  const expandString = (text: string, path: PathSegment[]): string => {
    if (!text.includes('$')) return text;
    const result = expandEnvRefs(text, env);
    const key = JSON.stringify(path);
    if (!result.ok) {
      unresolved.add(key);
      sink.error('env_syntax', `malformed environment reference: ${result.reason}`, locate(path));
      return text;
    }
    if (!withholdValues) for (const secret of targetOptionSecrets(path, result.substituted)) secrets.add(secret);
    if (result.substituted.length > 0 && !withholdValues) fromEnv.add(key);
    if (result.names.length > 0) origins.set(key, `from ${result.names.map((name) => `\${${name}}`).join(', ')}`);
    if (result.missing.length > 0 || (withholdValues && result.names.length > 0)) unresolved.add(key);
    for (const name of new Set(result.missing)) {
      const message = `environment variable ${name} is not set (or empty)`;
      if (requireEnv) sink.error('missing_env', message, locate(path));
      else sink.warning('missing_env', `${message}; a placeholder is used`, locate(path));
    }
    return withholdValues && result.names.length > 0 ? text : result.value;
  };

  // Outside targets, strings are only scanned (and warned about), so those parts are not copied.
  const scan = (value: unknown, path: PathSegment[]): void => {
    if (typeof value === 'string') {
      if (value.includes('${') && /\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value)) {
        sink.warning('env_not_expanded', '${VAR} references are expanded only in target options', locate(path));
      }
    } else if (Array.isArray(value)) value.forEach((item, index) => scan(item, [...path, index]));
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) scan(item, [...path, key]);
    }
  };
  const expand = (value: unknown, path: PathSegment[]): unknown => {
    if (typeof value === 'string') return expandString(value, path);
    if (Array.isArray(value)) return value.map((item, index) => expand(item, [...path, index]));
    if (value === null || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // A target's `type` picks its schema; it is never a secret. defineProperty, not assignment: a YAML
      // key "__proto__" must stay a plain key.
      const expanded = path.length === 2 && key === 'type' ? item : expand(item, [...path, key]);
      Object.defineProperty(copy, key, { value: expanded, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };
  const walkDocument = (document: unknown): unknown => {
    if (document === null || typeof document !== 'object' || Array.isArray(document)) return document;
    const copy: Record<string, unknown> = { ...document };
    for (const [key, item] of Object.entries(document)) {
      if (key === 'targets') copy.targets = expand(item, ['targets']);
      else scan(item, [key]);
    }
    if (copy.targets !== null && typeof copy.targets === 'object') {
      for (const [name, target] of Object.entries(copy.targets)) {
        const isFromEnv = (option: readonly string[]) => fromEnv.has(JSON.stringify(['targets', name, ...option]));
        for (const pair of credentialPairs(target, isFromEnv)) secrets.add(pair);
      }
    }
    return copy;
  };

  return {
    value: walkDocument(document),
    secrets: [...secrets],
    isUnresolved: (path) => unresolved.has(JSON.stringify(path)),
    originOf: (path) => origins.get(JSON.stringify(path)),
  };
}
