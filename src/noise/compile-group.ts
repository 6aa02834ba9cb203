import { parseDuration } from '../config/parse-duration.js';
import type { Template } from '../templates/template.js';

/** A route's `group:`, compiled (issue 12). */
export interface CompiledGroup {
  readonly by: readonly Template[];
  readonly waitMs: number;
  readonly intervalMs: number;
  readonly maxEvents: number;
  /** `normalize_key: true`: each rendered `by` value is compared normalised (normalizeKey). */
  readonly normalizeKey: boolean;
}

/**
 * Compiles a schema-checked `group:`. A `by` entry without `{{` would put every event in one group while
 * reading as if it split them: reported through `error` (with its index). Undefined when broken.
 */
export function compileGroup(
  raw: unknown,
  template: (text: string, index: number) => Template | undefined,
  error: (index: number, message: string) => void,
): CompiledGroup | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const spec = raw as {
    by?: unknown;
    wait?: unknown;
    interval?: unknown;
    max_events?: unknown;
    normalize_key?: unknown;
  };
  if (!Array.isArray(spec.by)) return undefined;
  let ok = true;
  const by = spec.by.flatMap((text: unknown, index) => {
    if (typeof text !== 'string') return [];
    if (!text.includes('{{')) {
      error(index, 'a group key must be a template over the event, e.g. "{{ data.rule }}"');
      ok = false;
      return [];
    }
    const compiled = template(text, index);
    if (compiled === undefined) ok = false;
    return compiled === undefined ? [] : [compiled];
  });
  if (!ok) return undefined;
  const duration = (value: unknown, fallback: number) =>
    typeof value === 'string' ? (parseDuration(value) ?? fallback) : fallback;
  return {
    by,
    waitMs: duration(spec.wait, 30_000),
    intervalMs: duration(spec.interval, 300_000),
    maxEvents: typeof spec.max_events === 'number' ? spec.max_events : 100,
    normalizeKey: spec.normalize_key === true,
  };
}
