import type { SeverityReading } from '../rules.js';

const MAX_RAW_LENGTH = 100;

/** A non-string severity as text for the journal and the log, bounded: it comes from the sender. */
function describeValue(value: unknown): string {
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > MAX_RAW_LENGTH ? `${text.slice(0, MAX_RAW_LENGTH)}...` : text;
}

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
  const value = Object.hasOwn(data, 'severity') ? data.severity : undefined;
  if (value === undefined || value === null) return { severity: { raw: null, level: null, unknown: false }, rank: -1 };
  // A number, list or object is a severity nobody anticipated, not a missing one: it must not lose the alert.
  const raw = typeof value === 'string' ? value : describeValue(value);
  const rank = ranks.get(raw.toLowerCase());
  if (rank !== undefined) return { severity: { raw, level: levels[rank] ?? null, unknown: false }, rank };
  const highest = levels.length - 1;
  return { severity: { raw, level: levels[highest] ?? null, unknown: true }, rank: highest };
}
