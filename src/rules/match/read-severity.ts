import type { SeverityReading } from '../rules.js';

const MAX_RAW_LENGTH = 100;

/** A non-string severity as text, for the journal and the log. */
function describeValue(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The severity as the journal and the log keep it, bounded, since it comes from the sender: a few thousand
 * characters of it failed PostgreSQL's index on the event counts (a 500 for a signed event).
 */
function bounded(text: string): string {
  if (text.length <= MAX_RAW_LENGTH) return text;
  // Not between the two halves of a surrogate pair: a lone half is not text the journal can keep as it is.
  const end = isHighSurrogate(text.charCodeAt(MAX_RAW_LENGTH - 1)) ? MAX_RAW_LENGTH - 1 : MAX_RAW_LENGTH;
  return `${text.slice(0, end)}...`;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

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
  const text = typeof value === 'string' ? value : describeValue(value);
  const rank = ranks.get(text.toLowerCase());
  const raw = bounded(text);
  if (rank !== undefined) return { severity: { raw, level: levels[rank] ?? null, unknown: false }, rank };
  const highest = levels.length - 1;
  return { severity: { raw, level: levels[highest] ?? null, unknown: true }, rank: highest };
}
