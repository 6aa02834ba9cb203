import type { CircuitPolicy, RateLimit, RetryPolicy, TargetType } from '../rules.js';

/** The delivery policy a target gets for every option its `retry:`, `rate_limit:`... leave out (docs/rules.md). */
export const DEFAULT_RETRY: RetryPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 10 * 60_000,
  maxAttempts: 12,
  maxAgeMs: 24 * 3_600_000,
};

export const DEFAULT_CIRCUIT: CircuitPolicy = { failures: 5, cooldownMs: 30_000 };

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Chat webhooks post to one channel in order, so one at a time; SMTP servers and APIs take a few in parallel.
 * PagerDuty one at a time too: a resolve sent alongside its trigger could arrive first and be dropped.
 */
export const DEFAULT_CONCURRENCY: Readonly<Record<TargetType, number>> = {
  slack: 1,
  teams: 1,
  email: 4,
  http: 8,
  pagerduty: 1,
};

/**
 * Slack allows about one message per second per incoming webhook, with short bursts:
 * https://api.slack.com/apis/rate-limits (its 429s are retried, but not asking is better). A Teams workflow
 * posts through the Teams connector, which throttles its calls per connection
 * (https://learn.microsoft.com/en-us/connectors/teams/#limits): the same pace keeps well under it. PagerDuty
 * throttles each integration key at about 120 events a minute (its limits adjust to the traffic:
 * https://developer.pagerduty.com/docs/events-api-v2/overview/).
 */
export const DEFAULT_RATE_LIMIT: Readonly<Record<TargetType, RateLimit | null>> = {
  slack: { perSecond: 1, burst: 5 },
  teams: { perSecond: 1, burst: 5 },
  email: null,
  http: null,
  pagerduty: { perSecond: 2, burst: 10 },
};
