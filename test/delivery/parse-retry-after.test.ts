import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/delivery/parse-retry-after.js';

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
  });

  it('reads the three HTTP-date forms as a delay from now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sunday, 22-Nov-26 10:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Sun Nov 22 10:00:05 2026', NOW)).toBe(5_000); // asctime: GMT without saying so
  });

  it('never answers a negative delay: a date in the past means now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', NOW)).toBe(0);
  });

  it('bounds an absurd number instead of overflowing', () => {
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([undefined, '', 'soon', '-5', '1.5', '10s', 'Sun, never', '2026-11-22T10:00:30Z'])(
    'reads %j as no hint',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    },
  );
});
