import { describe, expect, it } from 'vitest';
import { clipLine, clipText } from '../../../src/delivery/targets/clip-line.js';

describe('clipLine and clipText', () => {
  it('flattens line breaks, tabs and control characters into single spaces', () => {
    expect(clipLine(' a\r\nb\t\u0000c\u2028d ', 100)).toBe('a b c d');
    expect(clipText('a\nb', 100)).toBe('a\nb');
  });

  it('cuts to at most max UTF-16 units with an ellipsis, never inside a surrogate pair', () => {
    expect(clipText('abcdef', 6)).toBe('abcdef');
    expect(clipText('abcdefg', 6)).toBe('abcde…');
    const cut = clipText('ab🚨🚨', 4);
    expect(cut).toBe('ab…');
    expect(cut.length).toBeLessThanOrEqual(4);
    expect(clipLine('x'.repeat(5_000), 1_024)).toHaveLength(1_024);
  });
});
