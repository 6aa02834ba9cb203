import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/** One metric the daemon exposes, declared once so /metrics lists it from the first scrape. */
export interface MetricDefinition {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly labels?: readonly string[];
  /** Histogram buckets, in the metric's unit (seconds for durations). */
  readonly buckets?: readonly number[];
  /**
   * Counters and gauges: series that exist at 0 from the start, so that `rate()` and `increase()` see the
   * first one counted (a series that appears at 1 has no increase) and a dashboard shows 0, not "no data".
   */
  readonly initial?: readonly Labels[];
}

export type Labels = Readonly<Record<string, string>>;

/**
 * The daemon's metrics, in Prometheus conventions through prom-client (https://github.com/siimots/prom-client),
 * behind a small interface so the rest of the code names metrics and labels and nothing else. Each daemon
 * has its own registry: no global state, and two daemons in one test process do not mix their counts.
 */
export interface Metrics {
  increment(name: string, labels?: Labels, by?: number): void;
  observe(name: string, labels: Labels, value: number): void;
  set(name: string, labels: Labels, value: number): void;
  /** Drops every series of a gauge (before setting the current ones, so removed targets disappear). */
  reset(name: string): void;
  /** Runs before each scrape: gauges read from the journal or the engine are set here, never on the hot path. */
  onScrape(collect: () => Promise<void> | void): void;
  /** A counter's or gauge's current value (tests, health output). */
  value(name: string, labels?: Labels): Promise<number>;
  /** The sum of a counter's series that have all of `labels` (every series without), for summaries. */
  total(name: string, labels?: Labels): Promise<number>;
  render(): Promise<string>;
  readonly contentType: string;
}

export function createMetrics(
  definitions: readonly MetricDefinition[] = [],
  options: { processMetrics?: boolean } = {},
): Metrics {
  const registry = new Registry();
  if (options.processMetrics === true) {
    collectDefaultMetrics({ register: registry, prefix: 'switchyard_' });
    dropGaugesNamedTotal(registry);
  }
  const metrics = new Map<string, Metric>();
  for (const d of definitions) {
    const common = { name: d.name, help: d.help, labelNames: [...(d.labels ?? [])], registers: [registry] };
    const metric =
      d.type === 'counter'
        ? new Counter(common)
        : d.type === 'gauge'
          ? new Gauge(common)
          : new Histogram({ ...common, ...(d.buckets ? { buckets: [...d.buckets] } : {}) });
    for (const labels of d.initial ?? []) {
      if (metric instanceof Counter) metric.inc(labels, 0);
      else if (metric instanceof Gauge) metric.set(labels, 0);
    }
    metrics.set(d.name, metric);
  }
  const collectors: (() => Promise<void> | void)[] = [];
  function get<T extends Metric>(name: string, type: new (...args: never[]) => T): T {
    const metric = metrics.get(name);
    // A typo in a metric name is a bug in our code, not an operational condition: fail loudly in tests.
    if (!(metric instanceof type)) throw new Error(`metric ${name} is not declared as a ${type.name}`);
    return metric;
  }
  return {
    contentType: registry.contentType,
    increment: (name, labels = {}, by = 1) => get(name, Counter).inc(labels, by),
    observe: (name, labels, value) => get(name, Histogram).observe(labels, value),
    set: (name, labels, value) => get(name, Gauge).set(labels, value),
    reset: (name) => get(name, Gauge).reset(),
    onScrape: (collect) => void collectors.push(collect),
    async value(name, labels = {}) {
      const metric = metrics.get(name);
      if (metric === undefined) throw new Error(`metric ${name} is not declared`);
      const wanted = Object.entries(labels);
      const data = await metric.get();
      const sample = data.values.find(
        (v) =>
          wanted.every(([key, value]) => v.labels[key] === value) && Object.keys(v.labels).length === wanted.length,
      );
      return sample?.value ?? 0;
    },
    async total(name, labels = {}) {
      const wanted = Object.entries(labels);
      const data = await get(name, Counter).get();
      let sum = 0;
      for (const v of data.values) if (wanted.every(([key, value]) => v.labels[key] === value)) sum += v.value;
      return sum;
    },
    async render() {
      for (const collect of collectors) await collect();
      return registry.metrics();
    },
  };
}

/**
 * prom-client's default collectors include gauges named `*_total` (nodejs_active_handles_total,
 * nodejs_active_requests_total, nodejs_active_resources_total), a suffix Prometheus keeps for counters, so
 * `promtool check metrics` rejects them (https://prometheus.io/docs/practices/naming/). Each is the sum of the
 * gauge of the same name without the suffix, labelled by type: `sum(switchyard_nodejs_active_handles)` says
 * the same, so they are dropped rather than renamed.
 */
function dropGaugesNamedTotal(registry: Registry): void {
  for (const metric of registry.getMetricsAsArray()) {
    const { name } = metric;
    if (metric instanceof Gauge && name.endsWith('_total')) registry.removeSingleMetric(name);
  }
}
