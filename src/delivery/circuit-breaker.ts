import type { CircuitPolicy } from '../rules/rules.js';
import type { TargetSignal } from './outcome.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export type CircuitTransition = 'opened' | 'reopened' | 'closed';

export interface CircuitBreaker {
  /** How many attempts may start now: unlimited (Infinity) when closed, 0 when open, 1 probe when half-open. */
  allowance(now: number): number;
  /** A probe was sent (half-open): no more until it is answered. */
  started(): void;
  /**
   * `retry` outcomes count as failures; `delivered` closes the circuit; `permanent` and `rate-limited` (a 429:
   * the target is up, and pauses instead) are answers that say nothing about its health. Returns the transition
   * this caused, if any, for the log.
   */
  record(kind: TargetSignal, now: number): CircuitTransition | undefined;
  state(now: number): CircuitState;
  /** When an open circuit lets a probe through (ms), or undefined when not open. */
  opensProbeAt(): number | undefined;
}

/**
 * Per-target circuit breaker: after `failures` consecutive retryable failures the target pauses for
 * `cooldownMs`, then one delivery probes it. During an outage queued deliveries wait without spending attempts
 * (their claims are never taken), instead of each burning its 12 tries against a dead endpoint.
 */
export function createCircuitBreaker(policy: CircuitPolicy): CircuitBreaker {
  let consecutiveFailures = 0;
  let openUntil: number | undefined;
  let probeInFlight = false;

  const state = (now: number): CircuitState => {
    if (openUntil === undefined) return 'closed';
    return now < openUntil ? 'open' : 'half-open';
  };
  return {
    state,
    allowance(now) {
      const current = state(now);
      if (current === 'closed') return Number.POSITIVE_INFINITY;
      return current === 'half-open' && !probeInFlight ? 1 : 0;
    },
    started() {
      if (openUntil !== undefined) probeInFlight = true;
    },
    record(kind, now) {
      if (kind === 'permanent' || kind === 'rate-limited') {
        // A permanent answer is still an answer: the target is up, so a probe closes nothing but ends.
        probeInFlight = false;
        return undefined;
      }
      if (kind === 'delivered') {
        const wasOpen = openUntil !== undefined;
        consecutiveFailures = 0;
        openUntil = undefined;
        probeInFlight = false;
        return wasOpen ? 'closed' : undefined;
      }
      consecutiveFailures += 1;
      // A failed probe re-opens at once; otherwise the threshold opens it.
      const before = state(now);
      const opens = probeInFlight || consecutiveFailures >= policy.failures;
      probeInFlight = false;
      if (!opens) return undefined;
      // A late failure of an attempt started before the circuit opened extends the pause; only the log is quiet.
      openUntil = now + policy.cooldownMs;
      return before === 'closed' ? 'opened' : before === 'half-open' ? 'reopened' : undefined;
    },
    opensProbeAt: () => openUntil,
  };
}
