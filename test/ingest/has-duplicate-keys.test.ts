import { describe, expect, it } from 'vitest';
import { hasDuplicateKeys } from '../../src/ingest/has-duplicate-keys.js';

const check = (text: string): boolean => hasDuplicateKeys(text, JSON.parse(text));

describe('hasDuplicateKeys', () => {
  it.each([
    '{}',
    '[]',
    '"k"',
    '{"a":1,"b":2}',
    '{"a":{"k":1},"b":{"k":1},"k":1}',
    '{"k":"k","l":["k",{"k":"k"}]}',
    '{"a":"\\":","b":"\\\\","c":"\\\\\\":"}',
    '{ "a" :\n 1 , "b"\t:\r\n2 }',
    '{"__proto__":1,"constructor":2}',
    '[{"a":1},{"a":1}]',
  ])('finds none in %s', (text) => {
    expect(check(text)).toBe(false);
  });

  it.each([
    '{"a":1,"a":1}',
    '{"a":1,"a" : 2}',
    '{"x":[{"a":1,"b":{"c":1,"c":2}}]}',
    '{"a":"\\\\","a":2}',
    '{"__proto__":1,"__proto__":2}',
    '{"a\\u0062":1,"ab":2}',
  ])('finds one in %s', (text) => {
    expect(check(text)).toBe(true);
  });
});
