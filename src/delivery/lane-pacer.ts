import type { ClaimRequest, ClaimedDelivery } from '../store/store.js';
import type { DeliveryLane } from './delivery-lane.js';
import type { Outcome } from './outcome.js';

export interface LaneClaim {
  readonly claims: readonly ClaimedDelivery[];
  /** When pacing lets more start, if it held some back. */
  readonly blockedUntil: number | undefined;
  /** Pacing kept elsewhere, not the backlog, cut a claim that started some short (PacedClaim.heldBack). */
  readonly heldBack?: boolean;
}

/**
 * Where a target's pacing (rate limit, circuit, `Retry-After` pause) lives: in the engine's memory, for a journal
 * that is its alone (local-pacer.ts), or in a journal several instances share (shared-pacer.ts). The engine
 * claims and reports through this and never asks which.
 */
export interface LanePacer {
  /** Claims up to `request.limit` due deliveries of the lane's target, no more than pacing allows now. */
  claim(lane: DeliveryLane, request: ClaimRequest): Promise<LaneClaim>;
  /**
   * What a finished attempt said about its target; `interrupted` by shutdown says nothing, but ends a probe.
   * Resolves once the verdict is where the next claim reads it (at once in memory; once written to a shared
   * journal); never rejects.
   */
  settle(lane: DeliveryLane, claimed: ClaimedDelivery, outcome: Outcome, interrupted: boolean): Promise<void>;
  /**
   * Whether a delivered attempt's slot is free once its target has answered, before its record commits (issue
   * 11; DeliveryLane.settling). Not where the journal counts every standing claim against the target's
   * concurrency (shared pacing): leaving its own answered claims out of that count, an instance would take the
   * target from the others, who still count them (one instance delivered everything in a three-instance test).
   */
  readonly freesSlotAtAnswer: boolean;
  /** How soon to look again at deliveries that are due but were not claimed (held back elsewhere). */
  readonly recheckMs: number;
  /** For shutdown: waits for what `settle` still has to write. */
  drain(): Promise<void>;
}
