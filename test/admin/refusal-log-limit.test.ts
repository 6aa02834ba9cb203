import { describe, expect, it } from 'vitest';
import { createRefusalLogLimit } from '../../src/admin/refusal-log-limit.js';

describe('createRefusalLogLimit', () => {
  it('admits one refusal per address per window and counts the rest', () => {
    const limit = createRefusalLogLimit({ intervalMs: 1_000, maxLines: 10 });
    expect(limit.isOpen()).toBe(false);
    expect(limit.admit('10.0.0.1')).toBe(true);
    expect(limit.isOpen()).toBe(true);
    expect(limit.admit('10.0.0.1')).toBe(false);
    expect(limit.admit('10.0.0.2')).toBe(true);
    expect(limit.admit('10.0.0.1')).toBe(false);
    expect(limit.close()).toBe(2);
    expect(limit.isOpen()).toBe(false);
    expect(limit.admit('10.0.0.1')).toBe(true);
    expect(limit.close()).toBe(0);
  });

  it('caps the lines of a window whatever the number of addresses', () => {
    const limit = createRefusalLogLimit({ intervalMs: 1_000, maxLines: 3 });
    const admitted = Array.from({ length: 1_000 }, (_, i) => limit.admit(`10.0.${i >> 8}.${i & 255}`));
    expect(admitted.filter(Boolean)).toHaveLength(3);
    expect(limit.close()).toBe(997);
  });
});
