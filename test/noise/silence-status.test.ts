import { describe, expect, it } from 'vitest';
import { silenceStatus } from '../../src/noise/silence-status.js';

describe('silenceStatus', () => {
  it('is pending before its start, active in its window and expired from its end', () => {
    const silence = { startsAt: 1_000, endsAt: 2_000 };
    expect(silenceStatus(silence, 999)).toBe('pending');
    expect(silenceStatus(silence, 1_000)).toBe('active');
    expect(silenceStatus(silence, 2_000)).toBe('expired');
  });

  it('calls a silence expired before it started expired, not pending', () => {
    expect(silenceStatus({ startsAt: 5_000, endsAt: 5_000 }, 1_000)).toBe('expired');
  });
});
