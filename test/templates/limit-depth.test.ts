import { describe, expect, it } from 'vitest';
import { limitDepth, MAX_SHOWN_DEPTH, TOO_DEEP } from '../../src/templates/limit-depth.js';

/** `{"a": {"a": ... leaf}}`, `depth` objects deep, parsed from text (building it with JSON.stringify would overflow). */
function nested(depth: number, leaf = '1'): unknown {
  return JSON.parse(`${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`);
}

describe('limitDepth', () => {
  it('returns the value itself when nothing is nested deeper than the limit', () => {
    const value = { event: 'x', data: { agent: { tags: ['a', { b: 1 }] } } };
    expect(limitDepth(value, 5)).toBe(value);
    expect(limitDepth('text')).toBe('text');
    expect(limitDepth(null)).toBe(null);
  });

  it('keeps that many levels of objects and lists (the value itself the first) and marks the ones below', () => {
    const value = { keep: 1, deep: { list: [[1], 2], obj: { x: { y: 1 } } } };
    expect(limitDepth(value, 3)).toEqual({ keep: 1, deep: { list: [TOO_DEEP, 2], obj: { x: TOO_DEEP } } });
    expect(value.deep.obj.x).toEqual({ y: 1 });
  });

  it('a `__proto__` key stays a key in the copy', () => {
    const value = JSON.parse('{"__proto__": {"polluted": {"x": {}}}}') as object;
    const limited = limitDepth(value, 2) as Record<string, unknown>;
    expect(Object.hasOwn(limited, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an event nested 5,000 levels deep is cut at the default depth and then serialises', () => {
    expect(() => JSON.stringify(nested(5_000))).toThrow(RangeError);
    const limited = limitDepth({ data: nested(5_000) });
    const text = JSON.stringify(limited, null, 2);
    expect(text).toContain(TOO_DEEP);
    expect(text.match(/"a"/g)).toHaveLength(MAX_SHOWN_DEPTH - 1);
  });
});
