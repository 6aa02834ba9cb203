import { describe, expect, it } from 'vitest';
import { withValues } from '../../../src/store/postgres/with-values.js';

describe('withValues', () => {
  it('writes strings in quoted and escaped, and integers as they are', () => {
    expect(withValues('SELECT $1, $2, $1', ["it's", 42])).toBe("SELECT 'it''s', 42, 'it''s'");
    expect(withValues('SELECT $1', ['back\\slash'])).toBe("SELECT  E'back\\\\slash'");
  });

  it('writes a negative integer in parentheses, so that a minus sign before it cannot start a comment', () => {
    expect(withValues('SELECT 1-$1', [-5])).toBe('SELECT 1-(-5)');
    expect(withValues('SELECT $1::bigint[]', [[-1, 2]])).toBe('SELECT ARRAY[(-1),2]::bigint[]');
  });

  it('writes null as NULL, and an array as ARRAY[...] of its items, for the statement to cast', () => {
    expect(withValues('SELECT $1::text[], $2::bigint[], $3', [["a'b", null], [], null])).toBe(
      "SELECT ARRAY['a''b',NULL]::text[], ARRAY[]::bigint[], NULL",
    );
  });

  it('refuses anything but a string, a safe integer or null, in an array too, and a parameter with no value', () => {
    for (const value of [1.5, Number.NaN, 2 ** 60, undefined, {}, 'a\0b', [1.5], [[1]], [undefined], ['\0']]) {
      expect(() => withValues('SELECT $1', [value as unknown as number])).toThrow(RangeError);
    }
    expect(() => withValues('SELECT $2', ['a'])).toThrow('parameter $2');
  });

  it('reads a two-digit parameter as one, not as $1 and a digit', () => {
    const values = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(withValues('SELECT $10, $1', values)).toBe('SELECT 10, 1');
    expect(() => withValues('SELECT $10', ['a'])).toThrow('parameter $10');
  });
});
