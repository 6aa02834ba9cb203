import type { RateLimit } from '../rules/rules.js';

export interface TokenBucket {
  /** Whole tokens available at `now` (refilled first). */
  available(now: number): number;
  /** Spends one token; call only after `available(now) >= 1`. */
  take(now: number): void;
  /** ms from `now` until the next whole token, 0 when one is available. */
  waitMs(now: number): number;
}

/**
 * A token bucket per target: `burst` sends at once, then `perSecond` on average. Waiting for a token happens
 * before a delivery is claimed, so it never costs an attempt (Convoy's rule; Alertmanager gets this wrong).
 */
export function createTokenBucket(limit: RateLimit, now: number): TokenBucket {
  let tokens = limit.burst;
  let updatedAt = now;
  const refill = (at: number): void => {
    if (at <= updatedAt) return;
    tokens = Math.min(limit.burst, tokens + ((at - updatedAt) * limit.perSecond) / 1000);
    updatedAt = at;
  };
  return {
    available(at) {
      refill(at);
      return Math.floor(tokens);
    },
    take(at) {
      refill(at);
      tokens -= 1;
    },
    waitMs(at) {
      refill(at);
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / limit.perSecond);
    },
  };
}
