import type { TargetSignal } from '../outcome.js';
import type { PacingPolicy, PacingState } from './pacing-state.js';

/** What one attempt said about its target (not about the delivery): the input to the shared circuit. */
export interface TargetVerdict {
  readonly target: string;
  /**
   * `retry` counts as a failure; `delivered` closes the circuit; `permanent` says nothing about the target;
   * `rate-limited` (429) pauses it without counting as a failure.
   */
  readonly kind: TargetSignal;
  readonly at: number;
  /** `Retry-After` of a retryable answer, as a delay from `at`. */
  readonly retryAfterMs?: number | undefined;
  readonly policy: PacingPolicy;
  /** The claim the attempt ran under: tells the half-open probe's verdict from others. */
  readonly claimToken: string;
}

/**
 * The state after a verdict; the same rules as the single-instance circuit breaker: `failures` consecutive
 * failures (from any instance) open the circuit for the cool-down, a failed probe re-opens it at once, a
 * success closes it; a `Retry-After` pauses the target, capped at the policy's `max_delay`; a 429 only pauses it
 * (the engine fills in a default delay when it had no `Retry-After`).
 */
export function applyVerdict(state: PacingState, verdict: TargetVerdict): PacingState {
  const { policy, at } = verdict;
  // An attempt started before the circuit opened may answer while a probe is in flight: it must not end the
  // probe (a second one would go out), though its success still shows the target is up.
  const isProbe = state.probeToken !== null && verdict.claimToken === state.probeToken;
  const probe = isProbe ? { probeUntil: null, probeToken: null } : {};
  if (verdict.kind === 'delivered') {
    // Instances write their verdicts in no common order: a success answered before another instance's failures
    // (written first) must neither reset their count nor close the circuit they opened, or the instances send
    // into the outage.
    if (answeredBeforeLastFailure(state, verdict)) return { ...state, ...probe };
    return { ...state, failures: 0, openUntil: null, probeUntil: null, probeToken: null };
  }
  if (verdict.kind === 'permanent') return { ...state, ...probe };
  const pause =
    verdict.retryAfterMs === undefined
      ? state.pausedUntil
      : Math.max(state.pausedUntil, at + Math.min(Math.max(0, verdict.retryAfterMs), policy.maxDelayMs));
  if (verdict.kind === 'rate-limited') return { ...state, ...probe, pausedUntil: pause };
  const failures = state.failures + 1;
  const opens = isProbe || failures >= policy.circuit.failures;
  // Never earlier than it was: a failure written late (answered before the one that opened the circuit) must
  // not shorten the cool-down, nor make an older success look newer than the failures.
  const reopenAt = at + policy.circuit.cooldownMs;
  return {
    ...state,
    ...probe,
    failures,
    lastFailureAt: Math.max(at, state.lastFailureAt ?? at),
    openUntil: opens ? Math.max(reopenAt, state.openUntil ?? reopenAt) : state.openUntil,
    pausedUntil: pause,
  };
}

/**
 * How late a verdict can be written after its answer: the group commit, a pooled connection's wait and the 15 s
 * statement timeout, with margin. A failure stamped further ahead of a success than this comes from a clock out
 * of step (an instance's ahead, or one stepped back), not from a reordering: without the bound it would keep
 * every success from resetting the count, and a probe's from closing the circuit, for as long as the skew.
 */
const MAX_REORDER_MS = 60_000;

/**
 * The success was answered before the newest failure counted, or before the circuit opened (`openUntil` less the
 * cool-down now in force): both, because an older instance (a rolling upgrade, or a row from before PostgreSQL
 * migration 9) counts failures and opens the circuit without writing `lastFailureAt`.
 */
function answeredBeforeLastFailure(state: PacingState, verdict: TargetVerdict): boolean {
  const opening = state.openUntil === null ? -Infinity : state.openUntil - verdict.policy.circuit.cooldownMs;
  const newest = Math.max(state.lastFailureAt ?? -Infinity, opening);
  return verdict.at < newest && newest - verdict.at <= MAX_REORDER_MS;
}
