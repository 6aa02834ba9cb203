import { parseInstant } from '../../cli/parse-instant.js';
import { DELIVERY_STATES, type DeliveryState } from '../../store/store.js';
import { SwitchyardError } from '../../switchyard-error.js';

export const FILTER_NAMES = [
  'target',
  'state',
  'kind',
  'source',
  'event',
  'since',
  'until',
  'heldBy',
  'severity',
  'q',
  'reason',
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

/** Filters as the listings and replay take them; `since`/`until` in ms. */
export interface Filters {
  readonly target?: string;
  readonly state?: DeliveryState;
  readonly kind?: string;
  readonly source?: string;
  /** An event id (deliveries of one event). */
  readonly event?: string;
  /** Held deliveries of one silence, interval, throttle or digest. */
  readonly heldBy?: string;
  /** Issue 13: events of this severity (as received). */
  readonly severity?: string;
  /** Issue 13: text in the event's title (case-insensitive). */
  readonly q?: string;
  /** Issue 13: text in a delivery's last error (case-insensitive). */
  readonly reason?: string;
  readonly since?: number;
  readonly until?: number;
}

const STATES: readonly string[] = DELIVERY_STATES;
/** A search text longer than a stored title (200 characters) can match nothing. */
const MAX_TEXT = 200;

/**
 * Reads the `allowed` filters from query parameters or a JSON body. Times take the CLI's forms: an ISO 8601
 * date-time with a zone, a date (midnight UTC), or a duration meaning "that long ago" (`90m`, `7d`).
 * Throws a 400 `invalid_filter` naming the parameter.
 */
export function parseFilters(
  input: Readonly<Record<string, unknown>>,
  allowed: readonly FilterName[],
  now: number,
): Filters {
  const filters: Record<string, string | number> = {};
  for (const name of allowed) {
    const value = input[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) throw invalid(`${name}: give it once`);
    if (typeof value !== 'string' || value === '') throw invalid(`${name}: must be a non-empty string`);
    if ((name === 'q' || name === 'reason') && value.length > MAX_TEXT)
      throw invalid(`${name}: at most ${MAX_TEXT} characters`);
    if (name === 'state' && !STATES.includes(value)) throw invalid(`state: must be one of ${STATES.join(', ')}`);
    if (name === 'since' || name === 'until') {
      const instant = parseInstant(value, now);
      if (instant === undefined) {
        throw invalid(`${name}: "${value}" is not a date-time with a zone, a date or a duration such as 2h`);
      }
      filters[name] = instant;
    } else filters[name] = value;
  }
  return filters as Filters;
}

/** A 400 for any key not in `known`: a mistyped filter must not silently widen a listing or a replay. */
export function rejectUnknown(input: Readonly<Record<string, unknown>>, known: readonly string[], what: string): void {
  const unknown = Object.keys(input).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw invalid(`unknown ${what} ${unknown.map((k) => `"${k}"`).join(', ')}; known: ${known.join(', ')}`);
  }
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('invalid_filter', message, { status: 400 });
}
