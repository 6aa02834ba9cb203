import type { RetryPolicy } from '../rules/rules.js';
import type { SendState } from '../store/store.js';
import { nextAttemptAt } from './next-attempt-at.js';
import type { Outcome } from './outcome.js';

export interface NextStep {
  readonly state: SendState;
  readonly nextAttemptAt: number;
  /** Why the delivery is not delivered (null when it is), as stored in `last_error`. */
  readonly lastError: string | null;
}

export interface StepInput {
  readonly outcome: Outcome;
  /** Attempts counted in the current schedule (since the last replay), this one included unless rate limited. */
  readonly attempts: number;
  readonly now: number;
  /** When the `max_age` budget started: the event's receipt or the last replay (ms). */
  readonly retryFrom: number;
  readonly policy: RetryPolicy;
  readonly random: number;
}

/**
 * The engine's only retry decision, pure: delivered stays delivered, skipped stays skipped, permanent goes to the dead letters at once,
 * retryable waits for the backoff (or the receiver's `Retry-After`, capped at the policy's `max_delay`) unless
 * that would pass `max_attempts` or `max_age`, in which case it is dead-lettered now rather than left to rot.
 * A rate-limited answer (429) never uses up `max_attempts` (Convoy's rule: rate-limit waits do not), only
 * `max_age`; without `Retry-After` it waits the full backoff delay, without jitter, since the whole target
 * pauses that long too.
 */
export function decideNextStep(input: StepInput): NextStep {
  const { outcome, attempts, now, policy } = input;
  if (outcome.kind === 'delivered') return { state: 'delivered', nextAttemptAt: now, lastError: null };
  if (outcome.kind === 'skipped') return { state: 'skipped', nextAttemptAt: now, lastError: outcome.error };
  if (outcome.kind === 'permanent') return { state: 'dead', nextAttemptAt: now, lastError: outcome.error };
  if (outcome.rateLimited !== true && attempts >= policy.maxAttempts) {
    return { state: 'dead', nextAttemptAt: now, lastError: `gave up after ${attempts} attempts: ${outcome.error}` };
  }
  const at =
    outcome.retryAfterMs !== undefined
      ? now + Math.min(Math.max(0, outcome.retryAfterMs), policy.maxDelayMs)
      : outcome.rateLimited === true
        ? rateLimitPauseEnd(attempts, policy, now)
        : nextAttemptAt(attempts, policy, input.random, now);
  if (at > input.retryFrom + policy.maxAgeMs) {
    return { state: 'dead', nextAttemptAt: now, lastError: `gave up at the max_age limit: ${outcome.error}` };
  }
  return { state: 'pending', nextAttemptAt: at, lastError: outcome.error };
}

/** The backoff's upper bound for the next counted attempt: what a 429 without `Retry-After` waits. */
export function rateLimitPauseEnd(attempts: number, policy: RetryPolicy, now: number): number {
  return nextAttemptAt(attempts + 1, policy, 1, now);
}
