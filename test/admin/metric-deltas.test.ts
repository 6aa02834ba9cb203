import { describe, expect, it } from 'vitest';
import { applyMetricDeltas, recordMetricDeltas } from '../../src/admin/metric-deltas.js';
import { createMetrics } from '../../src/admin/metrics.js';
import { SWITCHYARD_METRICS } from '../../src/admin/switchyard-metrics.js';

const ATTEMPTS = 'switchyard_delivery_attempts_total';
const DURATION = 'switchyard_delivery_attempt_duration_seconds';

describe('recordMetricDeltas and applyMetricDeltas (the engine worker counts on the daemon /metrics)', () => {
  it('hands over what was counted since the last take, once, and the local metrics count it too', async () => {
    const local = createMetrics(SWITCHYARD_METRICS);
    const recorded = recordMetricDeltas(local);
    const daemon = createMetrics(SWITCHYARD_METRICS);
    expect(recorded.take()).toBeUndefined();

    recorded.metrics.increment(ATTEMPTS, { target: 'a', outcome: 'delivered' });
    recorded.metrics.increment(ATTEMPTS, { target: 'a', outcome: 'delivered' }, 2);
    recorded.metrics.increment(ATTEMPTS, { target: 'b', outcome: 'retry' });
    recorded.metrics.observe(DURATION, { target: 'a' }, 0.02);
    recorded.metrics.observe(DURATION, { target: 'a' }, 3);
    const first = recorded.take();
    expect(first?.counts).toHaveLength(2);
    applyMetricDeltas(daemon, first ?? { counts: [], observations: [] });
    expect(recorded.take()).toBeUndefined();

    recorded.metrics.increment(ATTEMPTS, { target: 'a', outcome: 'delivered' });
    applyMetricDeltas(daemon, recorded.take() ?? { counts: [], observations: [] });

    expect(await daemon.value(ATTEMPTS, { target: 'a', outcome: 'delivered' })).toBe(4);
    expect(await daemon.value(ATTEMPTS, { target: 'b', outcome: 'retry' })).toBe(1);
    expect(await local.value(ATTEMPTS, { target: 'a', outcome: 'delivered' })).toBe(4);
    const text = await daemon.render();
    expect(text).toContain(`${DURATION}_count{target="a"} 2`);
    expect(text).toContain(`${DURATION}_bucket{le="0.025",target="a"} 1`);
    expect(text).toContain(`${DURATION}_sum{target="a"} 3.02`);
  });
});
