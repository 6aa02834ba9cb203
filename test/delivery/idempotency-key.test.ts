import { describe, expect, it } from 'vitest';
import { idempotencyKey } from '../../src/delivery/idempotency-key.js';

describe('idempotencyKey', () => {
  it('is the delivery id until a delivered delivery is replayed, then names the generation', () => {
    expect(idempotencyKey('dlv_17', 0)).toBe('dlv_17');
    expect(idempotencyKey('dlv_17', 1)).toBe('dlv_17.r1');
    expect(idempotencyKey('dlv_17', 12)).toBe('dlv_17.r12');
  });
});
