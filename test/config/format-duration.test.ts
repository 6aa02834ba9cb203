import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/config/format-duration.js';
import { parseDuration } from '../../src/config/parse-duration.js';

describe('formatDuration', () => {
  it('writes a duration as the config would, largest units first, days rather than weeks', () => {
    expect(formatDuration(3_000)).toBe('3s');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(30 * 86_400_000)).toBe('30d');
    expect(formatDuration(36 * 3_600_000)).toBe('1d12h');
    expect(formatDuration(1_500)).toBe('1s500ms');
    expect(formatDuration(0)).toBe('0s');
  });

  it('is read back to the same number', () => {
    for (const ms of [1, 999, 3_000, 65_001, 7 * 86_400_000, 123_456_789]) {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    }
  });
});
