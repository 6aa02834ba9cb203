import type { CircuitState } from '../delivery/circuit-breaker.js';
import type { TargetVerdict } from '../delivery/pacing/apply-verdict.js';
import type { PacingPolicy } from '../delivery/pacing/pacing-state.js';
import type { ClaimRequest, ClaimedDelivery } from './store.js';

export interface PacedClaimRequest extends ClaimRequest {
  readonly policy: PacingPolicy;
}

export interface PacedClaim {
  readonly claims: ClaimedDelivery[];
  /** When the shared pacing lets more start, if it held some back; undefined when it did not or cannot tell. */
  readonly blockedUntil: number | undefined;
  /**
   * The pacing, not the backlog, kept the claim below its limit, with no time to wait for (`blockedUntil`): it
   * allowed fewer than asked (attempts in flight on any instance, a token bucket), at least one, and as many as
   * it allowed were due and claimed. More may be due; the claimed attempts' ends wake the lane.
   */
  readonly heldBack: boolean;
  /** The target's circuit as all instances see it, for status and metrics. */
  readonly circuit: CircuitState;
  /** When the (open or half-open) circuit's cool-down ends; undefined when closed. */
  readonly probeAt?: number | undefined;
  /** Until when the target asked for a pause (`Retry-After`, a 429); 0 when it did not. */
  readonly pausedUntil?: number | undefined;
}

/**
 * What several instances sharing one journal (PostgreSQL) must agree on per target.
 * - Pacing: rate limit, concurrency, circuit and `Retry-After` pause are decided against one row per target, in
 *   the same transaction as the claim, so three instances send at the target's rate, not three times it, and an
 *   outage opens every instance's circuit at once.
 * - Which targets exist: each instance declares the targets its rules define, so one whose rules lack a target
 *   (rules rolled out one instance at a time) leaves that target's deliveries to the instances that know it.
 * A journal with a single engine (SQLite) has none of this: the engine paces in memory and knows all targets.
 */
export interface SharedTargets {
  /** Claims up to `limit` due deliveries, no more than the target's shared pacing allows now, and spends it. */
  claim(request: PacedClaimRequest): Promise<PacedClaim>;
  /** Applies attempts' verdicts to their targets' circuits and pauses, in order, in one transaction. */
  report(verdicts: readonly TargetVerdict[]): Promise<void>;
  /** Records that this instance's rules define these targets, as of `now` (a heartbeat, once a minute). */
  declareTargets(targets: readonly string[], now: number): Promise<void>;
  /**
   * `Store.deadLetterTarget`, but only if no instance has declared the target since `quietSince`; deliveries
   * under a live claim are left alone. Returns how many were dead-lettered.
   */
  deadLetterUnknownTarget(target: string, reason: string, now: number, quietSince: number): Promise<number>;
}
