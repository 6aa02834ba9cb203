import type { Labels, Metrics } from './metrics.js';

/** Counter increments and histogram observations made since the last `take()`, grouped by series. */
export interface MetricDeltas {
  readonly counts: readonly (readonly [name: string, labels: Labels, by: number])[];
  readonly observations: readonly (readonly [name: string, labels: Labels, values: readonly number[]])[];
}

/**
 * `metrics`, with every increment and observation also kept until `take()`: how the delivery engine in a
 * worker thread (engine-worker.ts) hands its counts to the daemon's /metrics, a message every half second
 * rather than one per attempt. Gauges stay local: the main thread reads those from the worker's status.
 */
export function recordMetricDeltas(metrics: Metrics): { readonly metrics: Metrics; take(): MetricDeltas | undefined } {
  let counts = new Map<string, [string, Labels, number]>();
  let observations = new Map<string, [string, Labels, number[]]>();
  const key = (name: string, labels: Labels) => `${name}\u0000${JSON.stringify(labels)}`;
  return {
    metrics: {
      ...metrics,
      increment(name, labels = {}, by = 1) {
        metrics.increment(name, labels, by);
        const entry = counts.get(key(name, labels));
        if (entry === undefined) counts.set(key(name, labels), [name, labels, by]);
        else entry[2] += by;
      },
      observe(name, labels, value) {
        metrics.observe(name, labels, value);
        const entry = observations.get(key(name, labels));
        if (entry === undefined) observations.set(key(name, labels), [name, labels, [value]]);
        else entry[2].push(value);
      },
    },
    take() {
      if (counts.size === 0 && observations.size === 0) return undefined;
      const deltas = { counts: [...counts.values()], observations: [...observations.values()] };
      counts = new Map();
      observations = new Map();
      return deltas;
    },
  };
}

/** Adds deltas taken by `recordMetricDeltas` (in another thread) to these metrics. */
export function applyMetricDeltas(metrics: Pick<Metrics, 'increment' | 'observe'>, deltas: MetricDeltas): void {
  for (const [name, labels, by] of deltas.counts) metrics.increment(name, labels, by);
  for (const [name, labels, values] of deltas.observations) {
    for (const value of values) metrics.observe(name, labels, value);
  }
}
