import { describe, expect, it } from 'vitest';
import { createAuthThrottle, type AuthThrottleOptions } from '../../src/admin/auth-throttle.js';
import { throttleAddress } from '../../src/admin/throttle-address.js';
import { manualClock } from '../../src/clock.js';

const OPTIONS: AuthThrottleOptions = {
  freeFailures: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  forgetAfterMs: 60_000,
  maxAddresses: 100,
};

function fail(throttle: ReturnType<typeof createAuthThrottle>, address: string, times: number): void {
  for (let i = 0; i < times; i += 1) throttle.failed(address);
}

describe('throttleAddress', () => {
  it('counts IPv4 as it is, also IPv4-mapped, and IPv6 by its /64', () => {
    expect(throttleAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(throttleAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(throttleAddress('::ffff:7f00:1')).toBe('127.0.0.1');
    const group = ['2001:db8::1', '2001:db8::6', '2001:db8:0:0:ffff:ffff:ffff:ffff', '2001:DB8::abcd%eth0'].map(
      throttleAddress,
    );
    expect(new Set(group)).toEqual(new Set(['2001:db8:0:0::/64']));
    expect(throttleAddress('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(throttleAddress('unknown')).toBe('unknown');
  });
});

describe('createAuthThrottle', () => {
  it('lets the free failures through, then makes the address wait, doubling up to the cap', () => {
    const clock = manualClock();
    const throttle = createAuthThrottle(clock, OPTIONS);
    fail(throttle, '10.0.0.1', 2);
    expect(throttle.waitMs('10.0.0.1')).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      throttle.failed('10.0.0.1');
      const wait = throttle.waitMs('10.0.0.1');
      waits.push(wait);
      clock.advance(wait);
      expect(throttle.waitMs('10.0.0.1')).toBe(0);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('counts down the wait as time passes, and only for the failing address', () => {
    const clock = manualClock();
    const throttle = createAuthThrottle(clock, OPTIONS);
    fail(throttle, '10.0.0.1', 4);
    expect(throttle.waitMs('10.0.0.1')).toBe(2_000);
    clock.advance(1_500);
    expect(throttle.waitMs('10.0.0.1')).toBe(500);
    expect(throttle.waitMs('10.0.0.2')).toBe(0);
  });

  it('forgets failures older than forgetAfterMs, so an occasional typo never adds up to a wait', () => {
    const clock = manualClock();
    const throttle = createAuthThrottle(clock, OPTIONS);
    fail(throttle, '10.0.0.1', 2);
    clock.advance(60_000);
    fail(throttle, '10.0.0.1', 2);
    expect(throttle.waitMs('10.0.0.1')).toBe(0);
  });

  it('remembers at most maxAddresses, dropping the least recently failed', () => {
    const throttle = createAuthThrottle(manualClock(), { ...OPTIONS, maxAddresses: 3 });
    fail(throttle, 'a', 3);
    fail(throttle, 'b', 3);
    fail(throttle, 'c', 3);
    fail(throttle, 'a', 1); // a failed most recently now: b is the oldest
    for (let i = 0; i < 1_000; i += 1) throttle.failed(`flood-${i}`);
    expect(throttle.size()).toBe(3);
    fail(throttle, 'a', 3);
    fail(throttle, 'b', 1);
    expect(throttle.size()).toBe(3);
    expect(throttle.waitMs('a')).toBeGreaterThan(0);
  });
});
