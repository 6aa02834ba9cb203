import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { SWITCHYARD_METRICS } from '../../src/admin/switchyard-metrics.js';

describe('the daemon metrics', () => {
  it('has a held deliveries series at 0 for every held state from the start, so the first one is an increase', async () => {
    const text = await createMetrics(SWITCHYARD_METRICS).render();
    for (const state of ['silenced', 'muted', 'suppressed', 'grouped']) {
      expect(text).toContain(`switchyard_deliveries_held_total{state="${state}"} 0\n`);
    }
  });
});
