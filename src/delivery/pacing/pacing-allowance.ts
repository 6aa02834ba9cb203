import type { CircuitState } from '../circuit-breaker.js';
import type { PacingPolicy, PacingState } from './pacing-state.js';
import { refillTokens } from './refill-tokens.js';

export interface PacingAllowance {
  /** How many attempts may start now across all instances (may be Infinity before the caller's own limit). */
  readonly allowance: number;
  /** When pacing lets more start, if it is what holds them back now; undefined for "ask again later". */
  readonly blockedUntil: number | undefined;
  readonly circuit: CircuitState;
}

/**
 * How many attempts may start now, given the shared state and `inFlight` (attempts started by any instance and
 * not yet settled, leases of dead instances included until they expire). Mirrors the single-instance lane:
 * a `Retry-After` pause, then the circuit (one probe when half-open), then concurrency and tokens.
 */
export function pacingAllowance(
  state: PacingState,
  policy: PacingPolicy,
  now: number,
  inFlight: number,
): PacingAllowance {
  const circuit = circuitState(state, now);
  if (now < state.pausedUntil) return { allowance: 0, blockedUntil: state.pausedUntil, circuit };
  if (circuit === 'open') return { allowance: 0, blockedUntil: state.openUntil ?? undefined, circuit };
  let allowance = Math.max(0, policy.concurrency - inFlight);
  if (circuit === 'half-open') {
    const probing = state.probeUntil !== null && now < state.probeUntil;
    if (probing) return { allowance: 0, blockedUntil: undefined, circuit };
    allowance = Math.min(allowance, 1);
  }
  if (policy.rateLimit !== null) {
    const tokens = Math.floor(refillTokens(state, policy.rateLimit, now));
    if (tokens < 1 && allowance > 0) {
      const missing = 1 - refillTokens(state, policy.rateLimit, now);
      return { allowance: 0, blockedUntil: now + Math.ceil((missing * 1000) / policy.rateLimit.perSecond), circuit };
    }
    allowance = Math.min(allowance, tokens);
  }
  return { allowance, blockedUntil: undefined, circuit };
}

export function circuitState(state: PacingState, now: number): CircuitState {
  if (state.openUntil === null) return 'closed';
  return now < state.openUntil ? 'open' : 'half-open';
}
