import { describe, expect, it } from 'vitest';
import { CHART_COLUMNS, chartBuckets } from '../../../src/admin/api/chart-buckets.js';

const NOW = Date.UTC(2026, 10, 23, 10, 0, 30); // half a minute into 10:00

describe('chartBuckets', () => {
  it('covers the hours asked up to the end of the current minute, in at most 120 whole-minute buckets', () => {
    for (const hours of [1, 2, 3, 6, 7, 24, 48]) {
      const { start, bucketMinutes } = chartBuckets(NOW, hours);
      const end = Date.UTC(2026, 10, 23, 10, 1, 0);
      const count = (end - start) / (bucketMinutes * 60_000);
      expect(Number.isInteger(count)).toBe(true);
      expect(count).toBeLessThanOrEqual(CHART_COLUMNS);
      expect(end - start).toBeGreaterThanOrEqual(hours * 3_600_000);
      expect(end - start).toBeLessThan(hours * 3_600_000 + bucketMinutes * 60_000);
    }
  });

  it('takes one minute up to 2 hours, 3 for 6 hours and 24 for 48', () => {
    expect(chartBuckets(NOW, 2).bucketMinutes).toBe(1);
    expect(chartBuckets(NOW, 6)).toEqual({ start: Date.UTC(2026, 10, 23, 4, 1, 0), bucketMinutes: 3 });
    expect(chartBuckets(NOW, 48).bucketMinutes).toBe(24);
  });
});
