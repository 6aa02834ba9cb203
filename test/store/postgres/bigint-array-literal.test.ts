import { describe, expect, it } from 'vitest';
import { bigintArrayLiteral } from '../../../src/store/postgres/bigint-array-literal.js';

describe('bigintArrayLiteral', () => {
  it('writes integers (numbers or decimal strings, signed 64-bit) as a bigint[] literal', () => {
    expect(bigintArrayLiteral([1, '-9223372036854775808', 42])).toBe("'{1,-9223372036854775808,42}'::bigint[]");
    expect(bigintArrayLiteral([])).toBe("'{}'::bigint[]");
  });

  it('refuses anything else, so nothing but digits reaches the SQL', () => {
    for (const bad of ['1}', "1'; DROP TABLE events; --", '1.5', '', ' 1', 1.5, Number.NaN]) {
      expect(() => bigintArrayLiteral([1, bad])).toThrow(RangeError);
    }
  });
});
