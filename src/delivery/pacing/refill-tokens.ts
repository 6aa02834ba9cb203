import type { RateLimit } from '../../rules/rules.js';
import type { PacingState } from './pacing-state.js';

/** The bucket's tokens at `now`: `perSecond` added per second since `refilledAt`, never above `burst`. */
export function refillTokens(state: PacingState, limit: RateLimit, now: number): number {
  const elapsed = Math.max(0, now - state.refilledAt);
  return Math.min(limit.burst, state.tokens + (elapsed * limit.perSecond) / 1000);
}
