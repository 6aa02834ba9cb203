import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from '../../src/delivery/circuit-breaker.js';
import { decideNextStep } from '../../src/delivery/decide-next-step.js';
import { createDeliveryLane, laneUnblocksAt, pauseLane } from '../../src/delivery/delivery-lane.js';
import { nextAttemptAt } from '../../src/delivery/next-attempt-at.js';
import { redactDetail } from '../../src/delivery/redact-detail.js';
import { createTokenBucket } from '../../src/delivery/token-bucket.js';
import type { RetryPolicy } from '../../src/rules/rules.js';
import { TEST_POLICY, makeHttpSpec } from './targets/make-target-spec.js';

const POLICY: RetryPolicy = { initialDelayMs: 1_000, maxDelayMs: 600_000, maxAttempts: 12, maxAgeMs: 86_400_000 };

describe('nextAttemptAt (full jitter)', () => {
  it('draws uniformly below a bound that doubles from 1 s and is capped at 10 min', () => {
    expect([1, 2, 3, 4].map((n) => nextAttemptAt(n, POLICY, 0.999_999, 0))).toEqual([999, 1_999, 3_999, 7_999]);
    expect(nextAttemptAt(11, POLICY, 0.999_999, 0)).toBe(599_999);
    expect(nextAttemptAt(5_000, POLICY, 0.5, 100)).toBe(300_100);
    expect(nextAttemptAt(1, POLICY, 0, 100)).toBe(100);
    // Out-of-range randomness cannot push past the bound or before now.
    expect(nextAttemptAt(1, POLICY, 7, 0)).toBe(1_000);
    expect(nextAttemptAt(1, POLICY, -1, 0)).toBe(0);
  });
});

describe('decideNextStep', () => {
  const base = { attempts: 1, now: 10_000, retryFrom: 0, policy: POLICY, random: 0.5 };
  it('maps outcomes to delivered, dead or a scheduled retry', () => {
    expect(decideNextStep({ ...base, outcome: { kind: 'delivered', status: 200 } })).toEqual({
      state: 'delivered',
      nextAttemptAt: 10_000,
      lastError: null,
    });
    expect(decideNextStep({ ...base, outcome: { kind: 'permanent', error: 'HTTP 404' } })).toEqual({
      state: 'dead',
      nextAttemptAt: 10_000,
      lastError: 'HTTP 404',
    });
    expect(decideNextStep({ ...base, outcome: { kind: 'retry', error: 'HTTP 503' } })).toEqual({
      state: 'pending',
      nextAttemptAt: 10_500,
      lastError: 'HTTP 503',
    });
  });
  it('takes Retry-After over the backoff, never beyond max_delay, never negative', () => {
    const retry = (retryAfterMs: number) =>
      decideNextStep({ ...base, outcome: { kind: 'retry', error: 'e', retryAfterMs } }).nextAttemptAt;
    expect(retry(30_000)).toBe(40_000);
    expect(retry(10 * 3_600_000)).toBe(610_000);
    expect(retry(-5)).toBe(10_000);
  });
  it('gives up at max_attempts and at max_age (counted from the receipt or replay)', () => {
    const outcome = { kind: 'retry', error: 'HTTP 503' } as const;
    expect(decideNextStep({ ...base, outcome, attempts: 12 })).toMatchObject({ state: 'dead' });
    expect(decideNextStep({ ...base, outcome, attempts: 11 })).toMatchObject({ state: 'pending' });
    const late = { ...base, outcome, now: 86_399_800 };
    expect(decideNextStep(late)).toMatchObject({ state: 'dead', lastError: 'gave up at the max_age limit: HTTP 503' });
    expect(decideNextStep({ ...late, retryFrom: 50_000 })).toMatchObject({ state: 'pending' });
  });
  it('never gives up on a 429 at max_attempts (only max_age), and without Retry-After waits the full backoff', () => {
    const limited = { kind: 'retry', error: 'HTTP 429', rateLimited: true } as const;
    // `attempts` counts the counted ones only: 12 of 12 used, yet a 429 keeps the delivery pending.
    expect(decideNextStep({ ...base, outcome: limited, attempts: 12 })).toMatchObject({ state: 'pending' });
    // No jitter: the bound for the next counted attempt, 1 s doubling, capped at max_delay.
    expect(decideNextStep({ ...base, outcome: limited, attempts: 0 }).nextAttemptAt).toBe(11_000);
    expect(decideNextStep({ ...base, outcome: limited, attempts: 2 }).nextAttemptAt).toBe(14_000);
    expect(decideNextStep({ ...base, outcome: limited, attempts: 40 }).nextAttemptAt).toBe(610_000);
    expect(decideNextStep({ ...base, outcome: { ...limited, retryAfterMs: 3_000 } }).nextAttemptAt).toBe(13_000);
    const late = { ...base, outcome: limited, now: 86_399_800 };
    expect(decideNextStep(late)).toMatchObject({ state: 'dead', lastError: 'gave up at the max_age limit: HTTP 429' });
  });
});

describe('token bucket', () => {
  it('allows a burst, then refills at the rate, never above the burst', () => {
    const bucket = createTokenBucket({ perSecond: 2, burst: 3 }, 0);
    expect(bucket.available(0)).toBe(3);
    for (let i = 0; i < 3; i++) bucket.take(0);
    expect(bucket.available(0)).toBe(0);
    expect(bucket.waitMs(0)).toBe(500);
    expect(bucket.available(499)).toBe(0);
    expect(bucket.available(500)).toBe(1);
    expect(bucket.available(60_000)).toBe(3);
    expect(bucket.waitMs(60_000)).toBe(0);
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive retryable failures, lets one probe through after the cool-down', () => {
    const circuit = createCircuitBreaker({ failures: 2, cooldownMs: 1_000 });
    circuit.record('retry', 0);
    circuit.record('delivered', 1); // resets the count
    circuit.record('retry', 2);
    circuit.record('permanent', 3); // neither a failure nor a success
    expect(circuit.state(3)).toBe('closed');
    circuit.record('retry', 4);
    expect(circuit.state(5)).toBe('open');
    expect(circuit.allowance(1_003)).toBe(0);
    expect(circuit.opensProbeAt()).toBe(1_004);
    expect(circuit.allowance(1_004)).toBe(1);
    circuit.started();
    expect(circuit.allowance(1_004)).toBe(0);
    circuit.record('retry', 1_100);
    expect(circuit.state(1_100)).toBe('open');
    expect(circuit.opensProbeAt()).toBe(2_100);
    expect(circuit.allowance(2_100)).toBe(1);
    circuit.started();
    circuit.record('delivered', 2_200);
    expect(circuit.state(2_200)).toBe('closed');
    expect(circuit.allowance(2_200)).toBe(Number.POSITIVE_INFINITY);
  });

  it('does not count a 429 (rate-limited) as a failure; a probe answered 429 ends without re-opening', () => {
    const circuit = createCircuitBreaker({ failures: 2, cooldownMs: 1_000 });
    for (let at = 0; at < 10; at++) expect(circuit.record('rate-limited', at)).toBeUndefined();
    expect(circuit.state(10)).toBe('closed');
    expect(circuit.record('retry', 11)).toBeUndefined();
    expect(circuit.record('rate-limited', 12)).toBeUndefined();
    expect(circuit.record('retry', 13)).toBe('opened');
    circuit.started();
    expect(circuit.record('retry', 14)).toBeUndefined(); // a late answer extends the pause, no new transition
    expect(circuit.allowance(1_014)).toBe(1);
    circuit.started();
    circuit.record('rate-limited', 1_020);
    expect(circuit.state(1_020)).toBe('half-open');
    expect(circuit.allowance(1_020)).toBe(1);
    circuit.started();
    expect(circuit.record('retry', 1_030)).toBe('reopened');
    circuit.started();
    expect(circuit.record('delivered', 2_100)).toBe('closed');
  });
});

describe('redactDetail', () => {
  it('masks secrets (longest first), cuts URLs to scheme and host, flattens control characters, truncates', () => {
    expect(redactDetail('token abcd1234 and abcd1234XYZ', ['abcd1234', 'abcd1234XYZ'])).toBe(
      'token [redacted] and [redacted]',
    );
    expect(redactDetail('POST https://user:pw@api.example.com:8443/v1/x?key=1 failed', [])).toBe(
      'POST https://api.example.com:8443/… failed',
    );
    expect(redactDetail('line1\r\nline2\u0000', [])).toBe('line1 line2');
    expect(redactDetail('x'.repeat(1_000), [])).toHaveLength(300);
    expect(redactDetail('short key abc', ['abc'])).toBe('short key abc'); // too short to be a secret worth masking
  });
});

describe('laneUnblocksAt', () => {
  it('sets no timer while a half-open probe is in flight (its answer wakes the engine), nor when the lane can go', () => {
    const spec = makeHttpSpec({ policy: { ...TEST_POLICY, circuit: { failures: 1, cooldownMs: 1_000 } } });
    const lane = createDeliveryLane(
      spec,
      { send: async () => ({ kind: 'delivered' }), close: async () => {} },
      0,
      undefined,
    );
    expect(laneUnblocksAt(lane, 0)).toBeUndefined();
    lane.circuit.record('retry', 0);
    expect(laneUnblocksAt(lane, 10)).toBe(1_000);
    lane.circuit.started(); // the probe, once half-open
    expect(laneUnblocksAt(lane, 1_500)).toBeUndefined();
    pauseLane(lane, 5_000, 2_000);
    expect(laneUnblocksAt(lane, 2_000)).toBe(7_000);
  });
});
