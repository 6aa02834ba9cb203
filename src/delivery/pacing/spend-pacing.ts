import { circuitState } from './pacing-allowance.js';
import type { PacingPolicy, PacingState } from './pacing-state.js';
import { refillTokens } from './refill-tokens.js';

/**
 * The state after `started` attempts began at `now` under one claim: their tokens spent and, on a half-open
 * circuit, the probe marked in flight (with its claim's token) until `leaseEnd`, so a probe whose instance died
 * does not hold the circuit forever.
 */
export function spendPacing(
  state: PacingState,
  policy: PacingPolicy,
  now: number,
  claim: { readonly started: number; readonly leaseEnd: number; readonly claimToken: string },
): PacingState {
  const { started, leaseEnd, claimToken } = claim;
  const tokens = policy.rateLimit === null ? state.tokens : refillTokens(state, policy.rateLimit, now) - started;
  const probing = started > 0 && circuitState(state, now) === 'half-open';
  return {
    ...state,
    tokens,
    refilledAt: policy.rateLimit === null ? state.refilledAt : Math.max(now, state.refilledAt),
    probeUntil: probing ? leaseEnd : state.probeUntil,
    probeToken: probing ? claimToken : state.probeToken,
  };
}
