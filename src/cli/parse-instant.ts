import { parseDuration } from '../config/parse-duration.js';

/**
 * `--since`/`--until` values: an ISO 8601 date-time (`2026-11-22T10:00:00Z`, a zone required, as for events),
 * a date (`2026-11-22`, midnight UTC), or a duration meaning "that long ago" (`90m`, `2h`, `7d`).
 * Returns ms since the epoch, or undefined when the text is none of these.
 */
export function parseInstant(text: string, now: number): number | undefined {
  const ago = parseDuration(text);
  if (ago !== undefined) return now - ago;
  if (!/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
