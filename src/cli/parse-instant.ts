import { parseDuration } from '../config/parse-duration.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * `--since`/`--until` values: an ISO 8601 date-time (`2026-11-22T10:00:00Z`, a zone required, as for events),
 * a date (`2026-11-22`, midnight UTC), or a duration meaning "that long ago" (`90m`, `2h`, `7d`).
 * Returns ms since the epoch, or undefined when the text is none of these.
 */
export function parseInstant(text: string, now: number): number | undefined {
  const ago = parseDuration(text);
  if (ago !== undefined) return now - ago;
  const match = ISO.exec(text);
  if (match === null || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Date.parse rolls a day past the month's end over (2026-02-30 is 2 March): a typo must not move the bound. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}
