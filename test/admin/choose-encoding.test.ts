import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../src/admin/choose-encoding.js';

describe('chooseEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['GZIP;Q=1', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['deflate', undefined],
    ['gzip;q=nonsense', undefined],
  ])('%j answers %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});
