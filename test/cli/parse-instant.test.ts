import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../src/cli/parse-instant.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('parseInstant', () => {
  it.each([
    ['2026-11-22T10:00:00Z', Date.UTC(2026, 10, 22, 10)],
    ['2026-11-22T10:00:00.250Z', Date.UTC(2026, 10, 22, 10, 0, 0, 250)],
    ['2026-11-22T10:00Z', Date.UTC(2026, 10, 22, 10)],
    ['2026-11-22T11:30:00+01:30', Date.UTC(2026, 10, 22, 10)],
    ['2026-11-22T05:00:00-05:00', Date.UTC(2026, 10, 22, 10)],
    // A leap day is a real date.
    ['2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
  ])('reads the date-time %s', (text, expected) => {
    expect(parseInstant(text, NOW)).toBe(expected);
  });

  it('reads a bare date as midnight UTC', () => {
    expect(parseInstant('2026-11-22', NOW)).toBe(Date.UTC(2026, 10, 22));
  });

  it.each([
    ['90m', 90 * MINUTE],
    ['2h', 2 * HOUR],
    ['1h30m', 90 * MINUTE],
    ['7d', 7 * DAY],
    ['1w', 7 * DAY],
    ['45s', 45_000],
    ['500ms', 500],
    ['0s', 0],
  ])('reads the duration %s as that long before now', (text, ago) => {
    expect(parseInstant(text, NOW)).toBe(NOW - ago);
  });

  it.each([
    ['yesterday'],
    [''],
    ['2h ago'],
    ['-2h'],
    ['2'],
    ['1.5h'],
    ['2H'],
    // No zone: the same text would mean different instants on different hosts.
    ['2026-11-22T10:00:00'],
    ['2026-11-22 10:00:00Z'],
    ['22/11/2026'],
    ['2026-11-22Z'],
    ['1795341600000'],
    ['2026-13-01'],
    ['2026-00-10'],
    ['2026-11-00'],
    // Days past the month's end, which Date.parse alone would roll into the next month.
    ['2026-02-30'],
    ['2027-02-29'],
    ['2026-04-31T10:00:00Z'],
    ['2026-11-22T25:00:00Z'],
    ['2026-11-22T10:60:00Z'],
    ['2026-11-22T10:00:00+25:00'],
  ])('refuses %j', (text) => {
    expect(parseInstant(text, NOW)).toBeUndefined();
  });
});
