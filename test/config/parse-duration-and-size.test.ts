import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/config/parse-duration.js';
import { parseSize } from '../../src/config/parse-size.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
  it.each(['', '7', 'd', '1.5h', '-1s', '1 h', '1y'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('parseSize', () => {
  it.each([
    ['1mb', 1_048_576],
    ['1MiB', 1_048_576],
    ['512kb', 524_288],
    ['100', 100],
    ['10b', 10],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });
  it.each(['', 'mb', '1gb', '-1kb', '1.5mb'])('refuses %j', (text) => {
    expect(parseSize(text)).toBeUndefined();
  });
});
