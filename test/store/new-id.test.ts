import { describe, expect, it } from 'vitest';
import { newId } from '../../src/store/new-id.js';

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]+$/;

describe('newId', () => {
  it('is the prefix followed by a 26-character ULID in Crockford base32', () => {
    const id = newId('evt_', Date.UTC(2026, 10, 22, 10, 0, 0));
    expect(id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(id).toHaveLength(30);
  });

  it('encodes time in the first 10 characters and randomness in the last 16, most significant first', () => {
    expect(newId('', 0, (n) => Buffer.alloc(n, 0))).toBe('0'.repeat(26));
    expect(newId('', 2 ** 48 - 1, (n) => Buffer.alloc(n, 0xff))).toBe('7' + 'Z'.repeat(25));
    // Vector from the ULID spec: 1469918176385 ms -> 01ARYZ6S41. https://github.com/ulid/spec
    expect(newId('', 1469918176385, (n) => Buffer.alloc(n, 0)).slice(0, 10)).toBe('01ARYZ6S41');
    const oneBit = Buffer.alloc(10, 0);
    oneBit[9] = 1;
    expect(newId('', 0, () => oneBit).slice(10)).toBe('000000000000000' + '1');
  });

  it('sorts by time across milliseconds, whatever the random part', () => {
    const start = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 200 }, (_, i) => newId('dlv_', start + i * 37));
    expect([...ids].sort()).toEqual(ids);
    // Even a maximal random part in one ms sorts before a minimal one in the next.
    expect(newId('', start, (n) => Buffer.alloc(n, 0xff)) < newId('', start + 1, (n) => Buffer.alloc(n, 0))).toBe(true);
  });

  it('differs within the same millisecond', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('evt_', 1)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id.slice(4)).toMatch(CROCKFORD);
  });

  it('rejects a time it cannot encode, a prefix that would need escaping, and a short random source', () => {
    expect(() => newId('evt_', -1)).toThrow(RangeError);
    expect(() => newId('evt_', 1.5)).toThrow(RangeError);
    expect(() => newId('evt_', 2 ** 48)).toThrow(RangeError);
    expect(() => newId('evt/', 1)).toThrow(RangeError);
    expect(() => newId('evt_', 1, () => Buffer.alloc(9))).toThrow(RangeError);
  });
});
