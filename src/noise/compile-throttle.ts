import { parseDuration } from '../config/parse-duration.js';
import type { Template } from '../templates/template.js';

/** A route's or target's `throttle:`, compiled (issue 12). */
export interface CompiledThrottle {
  /** `route:<name>` or `target:<name>`: what held a suppressed delivery back (`held_by`). */
  readonly by: string;
  /** Rendered over the event; null: the whole route or target is one key. */
  readonly key: Template | null;
  readonly windowMs: number;
  readonly max: number;
  /** `normalize_key: true`: the rendered key is compared normalised (normalizeKey). */
  readonly normalizeKey: boolean;
}

/**
 * Compiles a schema-checked `throttle:` (`window` a duration, `max` a positive integer, `key` a string).
 * `template` compiles the key (reporting syntax errors itself); `error` reports a window of zero, which would
 * throttle nothing while reading as if it did. Undefined when absent or broken.
 */
export function compileThrottle(
  raw: unknown,
  by: string,
  template: (text: unknown) => Template | null | undefined,
  error: (message: string) => void,
): CompiledThrottle | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const spec = raw as { key?: unknown; window?: unknown; max?: unknown; normalize_key?: unknown };
  const windowMs = typeof spec.window === 'string' ? parseDuration(spec.window) : undefined;
  if (windowMs === 0) error('a throttle window of zero throttles nothing; give a duration such as 10m');
  const key = spec.key === undefined ? null : template(spec.key);
  if (windowMs === undefined || windowMs === 0 || key === undefined) return undefined;
  const max = typeof spec.max === 'number' ? spec.max : 1;
  return { by, key, windowMs, max, normalizeKey: spec.normalize_key === true };
}
