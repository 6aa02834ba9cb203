import type { Clock } from '../clock.js';

export interface AuthThrottleOptions {
  /** Wrong credentials one address may send before it has to wait. */
  readonly freeFailures: number;
  /** The first wait; each further failure doubles it, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** An address's failures are forgotten this long after its last one. */
  readonly forgetAfterMs: number;
  /** At most this many addresses are remembered; the one that failed least recently is dropped first. */
  readonly maxAddresses: number;
}

/** 5 free failures, then 1 s, 2 s, 4 s... up to a minute: about one guess a minute per address after that. */
export const DEFAULT_AUTH_THROTTLE: AuthThrottleOptions = {
  freeFailures: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  forgetAfterMs: 15 * 60_000,
  maxAddresses: 10_000,
};

export interface AuthThrottle {
  /** How long `address` must still wait before a credential from it is checked; 0 when it may try now. */
  waitMs(address: string): number;
  /** A wrong credential from `address`. */
  failed(address: string): void;
  /** Addresses remembered (bounded by `maxAddresses`). */
  size(): number;
}

interface Failures {
  count: number;
  last: number;
  blockedUntil: number;
}

/**
 * Per-address failure tracking for the admin credentials, so a guesser gets a few tries and then one try per
 * growing delay. The Map keeps insertion order, and an address is re-inserted on each failure, so the first
 * entry is the least recently failed: evicting it keeps memory bounded under a flood from many addresses.
 */
export function createAuthThrottle(clock: Clock, options: AuthThrottleOptions = DEFAULT_AUTH_THROTTLE): AuthThrottle {
  const tracked = new Map<string, Failures>();
  const current = (address: string, now: number): Failures | undefined => {
    const entry = tracked.get(address);
    if (entry !== undefined && now - entry.last >= options.forgetAfterMs && now >= entry.blockedUntil) {
      tracked.delete(address);
      return undefined;
    }
    return entry;
  };
  return {
    waitMs(address) {
      const now = clock.now();
      const entry = current(address, now);
      return entry === undefined ? 0 : Math.max(0, entry.blockedUntil - now);
    },
    failed(address) {
      const now = clock.now();
      const entry = current(address, now) ?? { count: 0, last: now, blockedUntil: 0 };
      tracked.delete(address);
      entry.count += 1;
      entry.last = now;
      const over = entry.count - options.freeFailures;
      if (over >= 0) entry.blockedUntil = now + Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** over);
      tracked.set(address, entry);
      while (tracked.size > options.maxAddresses) {
        const oldest = tracked.keys().next().value;
        if (oldest === undefined) break;
        tracked.delete(oldest);
      }
    },
    size: () => tracked.size,
  };
}
