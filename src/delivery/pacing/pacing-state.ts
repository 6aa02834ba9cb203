import type { CircuitPolicy, RateLimit } from '../../rules/rules.js';

/**
 * One target's pacing as several instances share it (PostgreSQL): rate-limit tokens, the circuit and a
 * `Retry-After` pause, kept in one row so that N instances together send at the target's rate, not N times it.
 * Plain data: the pure functions beside this file decide, the store only keeps it.
 */
export interface PacingState {
  /** Rate-limit tokens as of `refilledAt` (fractional: they refill continuously). */
  readonly tokens: number;
  readonly refilledAt: number;
  /** Consecutive retryable failures, across every instance. */
  readonly failures: number;
  /**
   * When the newest failure counted was answered: a success answered before it is older news, and neither resets
   * the count nor closes the circuit. Null before the first failure (and on rows from before migration 9).
   */
  readonly lastFailureAt: number | null;
  /** Set while the circuit is open or half-open: open before this instant, half-open from it. */
  readonly openUntil: number | null;
  /** A half-open probe is in flight until its verdict, or until its lease ends should its instance die. */
  readonly probeUntil: number | null;
  /** The probe's claim token: only the probe's own verdict ends it (not a late answer from before it). */
  readonly probeToken: string | null;
  /** The target asked for a pause (`Retry-After` on a 429 or 503): nothing starts before this. */
  readonly pausedUntil: number;
}

/** The part of a target's delivery policy that pacing reads. */
export interface PacingPolicy {
  readonly rateLimit: RateLimit | null;
  readonly concurrency: number;
  readonly circuit: CircuitPolicy;
  /** `retry.max_delay`: the longest `Retry-After` pause honoured. */
  readonly maxDelayMs: number;
}

/** A target seen for the first time: a full bucket, a closed circuit. */
export function initialPacingState(policy: PacingPolicy, now: number): PacingState {
  return {
    tokens: policy.rateLimit?.burst ?? 0,
    refilledAt: now,
    failures: 0,
    lastFailureAt: null,
    openUntil: null,
    probeUntil: null,
    probeToken: null,
    pausedUntil: 0,
  };
}

/** The pacing part of a target's delivery policy. */
export function pacingPolicyOf(policy: {
  readonly rateLimit: RateLimit | null;
  readonly concurrency: number;
  readonly circuit: CircuitPolicy;
  readonly retry: { readonly maxDelayMs: number };
}): PacingPolicy {
  return {
    rateLimit: policy.rateLimit,
    concurrency: policy.concurrency,
    circuit: policy.circuit,
    maxDelayMs: policy.retry.maxDelayMs,
  };
}
