/** Long enough for any alert title a person reads; bounds what the journal stores and searches per event. */
export const MAX_TITLE_LENGTH = 200;

/**
 * The event's title as the console shows and searches it: `data.title`, else a top-level `title`, when it is a
 * string; cut to MAX_TITLE_LENGTH characters (by code point, so no half surrogate pair); null without one.
 * `body` is the whole parsed body: the validated envelope keeps only `event`, `timestamp` and `data`.
 */
export function eventTitle(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { data, title } = body as { data?: unknown; title?: unknown };
  const nested = typeof data === 'object' && data !== null ? (data as { title?: unknown }).title : undefined;
  const found = typeof nested === 'string' ? nested : typeof title === 'string' ? title : null;
  if (found === null) return null;
  // A string of at most MAX_TITLE_LENGTH code units has at most that many code points: no need to split it.
  if (found.length <= MAX_TITLE_LENGTH) return found;
  const points = Array.from(found);
  return points.length > MAX_TITLE_LENGTH ? points.slice(0, MAX_TITLE_LENGTH).join('') : found;
}
