/** Long enough for any alert title a person reads; bounds what the journal stores and searches per event. */
export const MAX_TITLE_LENGTH = 200;

/**
 * The event's title as the console shows and searches it: `data.title`, else a top-level `title`, when it is a
 * string; cut to MAX_TITLE_LENGTH characters (by code point, so no half surrogate pair); null without one.
 * `envelope` is the parsed body (an object); `body`, when given, is read for a top-level title only when
 * `data.title` is missing and the bytes hold `"title"` at all, so ingest parses no body twice for nothing.
 */
export function eventTitle(envelope: unknown, body?: Buffer): string | null {
  if (typeof envelope !== 'object' || envelope === null) return null;
  const { data } = envelope as { data?: unknown };
  const nested = typeof data === 'object' && data !== null ? (data as { title?: unknown }).title : undefined;
  const found = typeof nested === 'string' ? nested : topLevelTitle(envelope, body);
  if (found === null) return null;
  const points = Array.from(found);
  return points.length > MAX_TITLE_LENGTH ? points.slice(0, MAX_TITLE_LENGTH).join('') : found;
}

function topLevelTitle(envelope: object, body: Buffer | undefined): string | null {
  let title = (envelope as { title?: unknown }).title;
  if (title === undefined && body !== undefined && body.includes('"title"')) {
    try {
      title = (JSON.parse(body.toString('utf8')) as { title?: unknown }).title;
    } catch {
      title = undefined;
    }
  }
  return typeof title === 'string' ? title : null;
}
