/** `Retry-After` as delay-seconds, e.g. `120`. */
const DELAY_SECONDS = /^\s*(\d+)\s*$/;
/**
 * The three HTTP-date forms (IMF-fixdate, RFC 850, asctime) all start with a day name; requiring it keeps
 * `Date.parse` from reading garbage such as `1.5` as a date. https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 */
const HTTP_DATE = /^\s*(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s/i;

/**
 * A `Retry-After` header value as a delay in ms from `nowMs`: never negative (a date in the past means
 * "now"), undefined when absent or unreadable. The engine bounds it by the target's retry policy.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = DELAY_SECONDS.exec(value);
  if (seconds) return Math.min(Number(seconds[1]) * 1000, Number.MAX_SAFE_INTEGER);
  if (!HTTP_DATE.test(value)) return undefined;
  // asctime carries no zone but means GMT; without one, Date.parse would read local time.
  const at = Date.parse(/GMT|UTC|[+-]\d{4}\s*$/i.test(value) ? value : `${value.trim()} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
