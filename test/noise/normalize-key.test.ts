import { describe, expect, it } from 'vitest';
import { normalizeKey } from '../../src/noise/normalize-key.js';

describe('normalizeKey', () => {
  it('makes case, surrounding whitespace and zero-width variants of one host one key', () => {
    const variants = ['H1', 'h1 ', 'h1\u200b', '\u00a0\tH1\n', 'h\u200d1\ufeff', 'h\u20601'];
    expect(new Set(variants.map(normalizeKey))).toEqual(new Set(['h1']));
  });

  it('applies NFKC: full-width and compatibility forms become plain letters, composed accents one form', () => {
    expect(normalizeKey('\uff24\uff22\uff0d\uff11')).toBe('db-1'); // full-width "DB-1"
    expect(normalizeKey('ﬁle-srv')).toBe('file-srv'); // the "fi" ligature
    expect(normalizeKey('Cafe\u0301')).toBe(normalizeKey('caf\u00e9'));
  });

  it('keeps whitespace and punctuation inside the key: different hosts stay apart', () => {
    expect(normalizeKey('db 1')).not.toBe(normalizeKey('db1'));
    expect(normalizeKey('db-1')).not.toBe(normalizeKey('db_1'));
    expect(normalizeKey('')).toBe('');
  });
});
