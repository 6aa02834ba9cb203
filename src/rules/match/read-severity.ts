import type { SeverityReading } from '../rules.js';

export interface SeverityRead {
  readonly severity: SeverityReading;
  /** Position of the level in the configured list; the highest for an unknown value; -1 when absent. */
  readonly rank: number;
}

/**
 * Reads `data.severity` against the configured levels (lowest first), case-insensitively. A value that is
 * not a configured level is read as the highest level, so an alert with a severity nobody anticipated is
 * over-delivered rather than lost; `unknown` lets ingest count and log it.
 */
export function readSeverity(
  data: Readonly<Record<string, unknown>>,
  levels: readonly string[],
  ranks: ReadonlyMap<string, number>,
): SeverityRead {
  const raw = Object.hasOwn(data, 'severity') ? data.severity : undefined;
  if (typeof raw !== 'string') return { severity: { raw: null, level: null, unknown: false }, rank: -1 };
  const rank = ranks.get(raw.toLowerCase());
  if (rank !== undefined) return { severity: { raw, level: levels[rank] ?? null, unknown: false }, rank };
  const highest = levels.length - 1;
  return { severity: { raw, level: levels[highest] ?? null, unknown: true }, rank: highest };
}
