import type { TargetSpec } from '../rules/rules.js';
import { createCircuitBreaker, type CircuitBreaker, type CircuitState } from './circuit-breaker.js';
import type { Target } from './target.js';
import type { TargetStatus } from './target-status.js';
import { createTokenBucket, type TokenBucket } from './token-bucket.js';

/** One target's pacing state in the engine: its client, rate limit, circuit and attempts in flight. */
export interface DeliveryLane {
  readonly spec: TargetSpec;
  readonly target: Target;
  readonly bucket: TokenBucket | undefined;
  readonly circuit: CircuitBreaker;
  inFlight: number;
  /**
   * The deliveries whose attempts were answered but whose records have not committed (issue 11): no longer in
   * flight to the target, so their slots are free (under load a slot held until the commit sent one delivery
   * per two turns of the event loop), but their claims still stand, so the journal keeps a key's next delivery
   * back meanwhile. At most `concurrency` of them count against nothing; beyond that they take slots, so a
   * journal slow to record cannot let claims pile up. Shared with the lane that replaces this one on a reload.
   * Empty with shared pacing (LanePacer.freesSlotAtAnswer).
   */
  readonly settling: Set<string>;
  /**
   * The last claim that could tell took fewer than it asked for: nothing more was due, or what was due waits
   * behind attempts still settling (their keys). Answers then do not wake the lane (launch-attempt.ts).
   */
  claimedAll: boolean;
  /** Until when the target itself asked for a pause (`Retry-After` on a 429 or 503): no attempt starts before. */
  pausedUntil: number;
  /** On a shared journal: the target's circuit as every instance sees it, from the last claim. */
  sharedCircuit: CircuitState | undefined;
  /** On a shared journal, from the last claim: when the open circuit lets a probe through, and the pause's end. */
  sharedProbeAt: number | undefined;
  sharedPausedUntil: number;
  /** The circuit state last logged, so that each transition is logged once. */
  circuitLogged: CircuitState;
  /** The last failure's detail (redacted), for the log line of a circuit that opens. */
  lastFailure: string | undefined;
}

/**
 * A lane for `spec`. On a rules reload the target's client is rebuilt from the new options, but the rate
 * limit's tokens and the circuit carry over when their settings did not change: a reload must not reset an
 * open circuit or grant a fresh burst to a channel that is being flooded. With `sharedPacing` the journal keeps
 * the rate limit and circuit for all instances, and the lane keeps only this instance's concurrency.
 */
export function createDeliveryLane(
  spec: TargetSpec,
  target: Target,
  now: number,
  previous: DeliveryLane | undefined,
  sharedPacing = false,
): DeliveryLane {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const keepBucket = previous !== undefined && same(previous.spec.policy.rateLimit, spec.policy.rateLimit);
  const keepCircuit = previous !== undefined && same(previous.spec.policy.circuit, spec.policy.circuit);
  return {
    spec,
    target,
    bucket:
      sharedPacing || spec.policy.rateLimit === null
        ? undefined
        : keepBucket
          ? previous.bucket
          : createTokenBucket(spec.policy.rateLimit, now),
    circuit: keepCircuit ? previous.circuit : createCircuitBreaker(spec.policy.circuit),
    // Attempts started under the old options still count against the target's concurrency.
    inFlight: previous?.inFlight ?? 0,
    settling: previous?.settling ?? new Set(),
    claimedAll: false,
    pausedUntil: previous?.pausedUntil ?? 0,
    sharedCircuit: previous?.sharedCircuit,
    sharedProbeAt: previous?.sharedProbeAt,
    sharedPausedUntil: previous?.sharedPausedUntil ?? 0,
    circuitLogged: keepCircuit || sharedPacing ? (previous?.circuitLogged ?? 'closed') : 'closed',
    lastFailure: previous?.lastFailure,
  };
}

/**
 * Changes the count of attempts in flight on `lane`, which a reload may have replaced since: the new lane took
 * the old one's count over (createDeliveryLane), so both change.
 */
export function adjustInFlight(lanes: ReadonlyMap<string, DeliveryLane>, lane: DeliveryLane, by: number): void {
  const current = lanes.get(lane.spec.name);
  if (current !== undefined) current.inFlight += by;
  if (current !== lane) lane.inFlight += by;
}

/** Adds a delivery to, or removes it from, the settling ones of `lane` and of the lane now serving its target. */
export function markSettling(
  lanes: ReadonlyMap<string, DeliveryLane>,
  lane: DeliveryLane,
  deliveryId: string,
  settling: boolean,
): void {
  for (const each of [lanes.get(lane.spec.name), lane]) {
    if (settling) each?.settling.add(deliveryId);
    else each?.settling.delete(deliveryId);
  }
}

/** How many attempts the lane may start now: concurrency, circuit and tokens all have a say. */
export function laneCapacity(lane: DeliveryLane, now: number): number {
  if (now < lane.pausedUntil) return 0;
  const { concurrency } = lane.spec.policy;
  const free = Math.min(concurrency - lane.inFlight, 2 * concurrency - lane.inFlight - lane.settling.size);
  const tokens = lane.bucket === undefined ? Number.POSITIVE_INFINITY : lane.bucket.available(now);
  return Math.max(0, Math.min(free, lane.circuit.allowance(now), tokens));
}

/** When the lane, blocked now by its rate limit or circuit, can start again (ms), or undefined. */
export function laneUnblocksAt(lane: DeliveryLane, now: number): number | undefined {
  if (now < lane.pausedUntil) return lane.pausedUntil;
  if (lane.circuit.allowance(now) === 0) {
    // Half-open with its probe in flight: the probe's answer wakes the engine, so no timer (a past
    // `opensProbeAt` here would make the engine spin).
    const probeAt = lane.circuit.opensProbeAt();
    return probeAt !== undefined && probeAt > now ? probeAt : undefined;
  }
  const wait = lane.bucket?.waitMs(now) ?? 0;
  return wait > 0 ? now + wait : undefined;
}

/**
 * A retryable answer with `Retry-After` speaks for the whole target (Slack's 429 is per webhook): the lane
 * waits that long, capped at the policy's `max_delay`, instead of letting every queued delivery spend an
 * attempt on the same refusal.
 */
export function pauseLane(lane: DeliveryLane, retryAfterMs: number, now: number): void {
  const until = now + Math.min(Math.max(0, retryAfterMs), lane.spec.policy.retry.maxDelayMs);
  lane.pausedUntil = Math.max(lane.pausedUntil, until);
}

/**
 * The lane's circuit as of `now`, with when an open circuit lets its next probe through and until when the target
 * asked for a pause: both only while still ahead (a shared state read at the last claim may have run out since).
 */
export function laneCircuit(
  lane: DeliveryLane,
  now: number,
): { state: CircuitState; nextProbeAt: number | undefined; pausedUntil: number | undefined } {
  const paused = Math.max(lane.pausedUntil, lane.sharedPausedUntil);
  const pausedUntil = paused > now ? paused : undefined;
  if (lane.sharedCircuit === undefined) {
    const state = lane.circuit.state(now);
    return { state, nextProbeAt: state === 'open' ? lane.circuit.opensProbeAt() : undefined, pausedUntil };
  }
  const probeAt = lane.sharedProbeAt;
  if (lane.sharedCircuit === 'open' && probeAt !== undefined && probeAt > now) {
    return { state: 'open', nextProbeAt: probeAt, pausedUntil };
  }
  const state = lane.sharedCircuit === 'closed' ? 'closed' : 'half-open';
  return { state, nextProbeAt: undefined, pausedUntil };
}

/** What the engine reports of the lane (health, the admin API, metrics). */
export function laneStatus(lane: DeliveryLane, now: number): TargetStatus {
  const { state, nextProbeAt, pausedUntil } = laneCircuit(lane, now);
  const { inFlight, settling } = lane;
  return { target: lane.spec.name, inFlight, awaitingRecord: settling.size, circuit: state, nextProbeAt, pausedUntil };
}
