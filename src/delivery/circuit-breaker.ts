import type { CircuitPolicy } from '../rules/rules.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreaker {
  /** How many attempts may start now: unlimited (Infinity) when closed, 0 when open, 1 probe when half-open. */
  allowance(now: number): number;
  /** A probe was sent (half-open): no more until it is answered. */
  started(): void;
  /** `retry` outcomes count as failures; `delivered` closes the circuit; `permanent` says nothing about the target. */
  record(kind: 'delivered' | 'retry' | 'permanent', now: number): void;
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
      if (kind === 'permanent') {
        // A permanent answer is still an answer: the target is up, so a probe closes nothing but ends.
        probeInFlight = false;
        return;
      }
      if (kind === 'delivered') {
        consecutiveFailures = 0;
        openUntil = undefined;
        probeInFlight = false;
        return;
      }
      consecutiveFailures += 1;
      // A failed probe re-opens at once; otherwise the threshold opens it.
      if (probeInFlight || consecutiveFailures >= policy.failures) openUntil = now + policy.cooldownMs;
      probeInFlight = false;
    },
    opensProbeAt: () => openUntil,
  };
}
