import { describe, expect, it } from 'vitest';
import { chartBars } from '../../console/src/components/chart-bars.js';

const NOW = Date.parse('2026-11-22T10:00:30Z');

describe('chartBars', () => {
  it('puts the rows in buckets of the given width, merges kinds and stacks severities from critical up', () => {
    const data = chartBars(
      [
        { minute: '2026-11-22T09:58:00.000Z', kind: 'a', severity: 'low', count: 2 },
        { minute: '2026-11-22T09:59:00.000Z', kind: 'b', severity: 'critical', count: 1 },
        { minute: '2026-11-22T09:59:00.000Z', kind: 'c', severity: 'low', count: 3 },
        { minute: '2026-11-22T10:00:00.000Z', kind: 'a', severity: null, count: 4 },
        // Before the window: left out.
        { minute: '2026-11-22T08:00:00.000Z', kind: 'a', severity: 'high', count: 9 },
      ],
      NOW,
      1,
      2,
    );
    expect(data.bucketMinutes).toBe(2);
    expect(data.bars).toHaveLength(30);
    const last = data.bars.at(-1);
    const previous = data.bars.at(-2);
    expect(new Date(last?.start ?? 0).toISOString()).toBe('2026-11-22T09:59:00.000Z');
    expect(last?.segments).toEqual([
      { severity: 'critical', count: 1, base: 0 },
      { severity: 'low', count: 3, base: 1 },
      { severity: 'none', count: 4, base: 4 },
    ]);
    expect(previous?.segments).toEqual([{ severity: 'low', count: 2, base: 0 }]);
    expect(data.max).toBe(8);
    expect(data.severities).toEqual(['critical', 'low', 'none']);
    expect(Object.fromEntries(data.totals)).toEqual({ critical: 1, low: 5, none: 4 });
  });

  it('draws empty bars when nothing came in', () => {
    const data = chartBars([], NOW, 6, 3);
    expect(data.bucketMinutes).toBe(3);
    expect(data.bars).toHaveLength(120);
    expect(data.max).toBe(0);
    expect(data.severities).toEqual([]);
  });
});
