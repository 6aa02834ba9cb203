import type { Locator } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';

export const DEFAULT_SEVERITIES: readonly string[] = ['info', 'low', 'medium', 'high', 'critical'];

export interface SeverityScale {
  readonly levels: readonly string[];
  /** Lower-cased level → position (lowest first). */
  readonly ranks: ReadonlyMap<string, number>;
}

/**
 * Builds the severity scale from the list (or the default); levels must differ case-insensitively.
 * With `schemaBroken`, duplicates are still reported but no scale is returned.
 */
export function compileSeverities(
  levels: unknown,
  schemaBroken: boolean,
  locate: Locator,
  sink: ProblemSink,
): SeverityScale | undefined {
  const list: readonly unknown[] = Array.isArray(levels) ? levels : levels === undefined ? DEFAULT_SEVERITIES : [];
  const ranks = new Map<string, number>();
  let ok = !schemaBroken;
  list.forEach((level, index) => {
    if (typeof level !== 'string' || level === '') return;
    const key = level.toLowerCase();
    const first = ranks.get(key);
    if (first === undefined) {
      ranks.set(key, index);
      return;
    }
    ok = false;
    sink.error(
      'duplicate_severity',
      `duplicate severity level "${level}" (same as item ${first + 1}; levels are compared case-insensitively)`,
      locate(['severities', index]),
    );
  });
  return ok ? { levels: list as readonly string[], ranks } : undefined;
}
