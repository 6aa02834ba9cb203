import { classifyHttpStatus } from './classify-http-status.js';
import type { Outcome } from './outcome.js';

interface EventsAnswer {
  readonly message?: string;
  readonly dedup_key?: string;
  readonly errors?: readonly string[];
}

/**
 * An Events API v2 answer as an outcome, as PagerDuty's retry table says
 * (https://developer.pagerduty.com/docs/events-api-v2/overview/): 202 delivered, with the `dedup_key`
 * PagerDuty filed it under; 400 permanent, with PagerDuty's `errors` (what to fix); 429 and 5xx retried, 429
 * honouring `Retry-After` when given. Any other status reads as classifyHttpStatus does. The answer is kept
 * whole: the engine cuts it after masking secrets.
 */
export function classifyPagerdutyAnswer(status: number, bodyText: string, retryAfterMs: number | undefined): Outcome {
  const answer = parseAnswer(bodyText);
  if (status >= 200 && status < 300) {
    const key = answer?.dedup_key;
    const parts = [answer?.message, key === undefined ? undefined : `dedup_key ${key}`].filter(Boolean);
    return {
      kind: 'delivered',
      status,
      detail: parts.length > 0 ? parts.join('; ') : bodyText.trim() || undefined,
      captured: key === undefined ? undefined : { dedup_key: key },
    };
  }
  const explained =
    answer === undefined ? bodyText.trim() : [answer.message, ...(answer.errors ?? [])].filter(Boolean).join(': ');
  const outcome = classifyHttpStatus(status, retryAfterMs, explained);
  return outcome.kind === 'delivered' ? outcome : { ...outcome, error: `PagerDuty answered ${outcome.error}` };
}

/** The documented fields that are present with their documented types; undefined when the body is not JSON. */
function parseAnswer(text: string): EventsAnswer | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { message, dedup_key: key, errors } = parsed as Record<string, unknown>;
  return {
    ...(typeof message === 'string' && message !== '' ? { message } : {}),
    ...(typeof key === 'string' && key !== '' ? { dedup_key: key } : {}),
    ...(Array.isArray(errors) ? { errors: errors.filter((item): item is string => typeof item === 'string') } : {}),
  };
}
