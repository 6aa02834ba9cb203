import { describe, expect, it } from 'vitest';
import { readSeverity } from '../../src/rules/match/read-severity.js';

const levels = ['info', 'low', 'medium', 'high', 'critical'];
const ranks = new Map(levels.map((level, index) => [level, index]));
const read = (data: Record<string, unknown>) => readSeverity(data, levels, ranks);

describe('reading data.severity', () => {
  it('maps a configured level case-insensitively to the configured name', () => {
    expect(read({ severity: 'HiGh' })).toEqual({ severity: { raw: 'HiGh', level: 'high', unknown: false }, rank: 3 });
  });

  it('reads an unknown value as the highest level and flags it', () => {
    expect(read({ severity: 'sev0' })).toEqual({
      severity: { raw: 'sev0', level: 'critical', unknown: true },
      rank: 4,
    });
    expect(read({ severity: '' })).toMatchObject({ severity: { unknown: true }, rank: 4 });
    expect(read({ severity: ' high ' })).toMatchObject({ severity: { unknown: true } });
  });

  it('treats an absent or null severity as none', () => {
    const none = { severity: { raw: null, level: null, unknown: false }, rank: -1 };
    expect(read({})).toEqual(none);
    expect(read({ severity: null })).toEqual(none);
  });

  it('reads a non-string severity as an unknown value, so the alert is not lost', () => {
    expect(read({ severity: 5 })).toEqual({ severity: { raw: '5', level: 'critical', unknown: true }, rank: 4 });
    expect(read({ severity: ['high'] })).toMatchObject({ severity: { raw: '["high"]', unknown: true }, rank: 4 });
    expect(read({ severity: { level: 'x'.repeat(500) } }).severity.raw).toHaveLength(103);
  });

  it('keeps at most 100 characters of a long severity, read against the levels whole', () => {
    const long = 'x'.repeat(5_000);
    expect(read({ severity: long })).toEqual({
      severity: { raw: `${'x'.repeat(100)}...`, level: 'critical', unknown: true },
      rank: 4,
    });
    const levelled = readSeverity({ severity: long.toUpperCase() }, [long, 'info'], new Map([[long, 0]]));
    expect(levelled).toMatchObject({ severity: { level: long, unknown: false }, rank: 0 });
    expect(read({ severity: `${'x'.repeat(99)}🚨🚨` }).severity.raw).toBe(`${'x'.repeat(99)}...`);
  });

  it('ignores an inherited severity', () => {
    const data = Object.create({ severity: 'critical' }) as Record<string, unknown>;
    expect(read(data).rank).toBe(-1);
  });
});
