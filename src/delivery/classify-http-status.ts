import type { Outcome } from './outcome.js';

/** Statuses that say "not now" rather than "never": request timeout, too early, rate limited. */
const RETRYABLE_4XX: ReadonlySet<number> = new Set([408, 425, 429]);

/**
 * What an HTTP answer means for the delivery: 2xx delivered; 408, 425, 429 and 5xx retried (honouring
 * `Retry-After`), 429 marked as rate limiting (see Outcome); every other status permanent, redirects included — they are not followed, because a
 * redirect could lead the request (and its credentials) to another host. `excerpt` is a short, already
 * trimmed piece of the response body for the attempt record.
 */
export function classifyHttpStatus(status: number, retryAfterMs: number | undefined, excerpt = ''): Outcome {
  const said = excerpt === '' ? '' : `: ${excerpt}`;
  if (status >= 200 && status < 300) return { kind: 'delivered', status, detail: excerpt === '' ? undefined : excerpt };
  if (status >= 500 || RETRYABLE_4XX.has(status)) {
    const rateLimited = status === 429 ? { rateLimited: true } : {};
    return { kind: 'retry', status, error: `HTTP ${status}${said}`, retryAfterMs, ...rateLimited };
  }
  if (status >= 300 && status < 400) {
    return { kind: 'permanent', status, error: `HTTP ${status}: redirects are not followed; use the final URL${said}` };
  }
  return { kind: 'permanent', status, error: `HTTP ${status}${said}` };
}
