/**
 * In-process counters, rendered in the Prometheus text format at /metrics. Deliberately tiny: a handful of
 * counters does not justify a metrics library on the ingest hot path.
 */
export interface Metrics {
  increment(name: string, labels?: Readonly<Record<string, string>>, by?: number): void;
  value(name: string, labels?: Readonly<Record<string, string>>): number;
  render(): string;
}

export interface MetricHelp {
  readonly name: string;
  readonly help: string;
}

export function createMetrics(described: readonly MetricHelp[] = []): Metrics {
  const values = new Map<string, Map<string, number>>();
  const help = new Map(described.map((m) => [m.name, m.help]));
  const labelText = (labels: Readonly<Record<string, string>> = {}): string => {
    const entries = Object.entries(labels);
    if (entries.length === 0) return '';
    return `{${entries.map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`;
  };
  return {
    increment(name, labels, by = 1) {
      let series = values.get(name);
      if (!series) values.set(name, (series = new Map()));
      const key = labelText(labels);
      series.set(key, (series.get(key) ?? 0) + by);
    },
    value(name, labels) {
      return values.get(name)?.get(labelText(labels)) ?? 0;
    },
    render() {
      const names = new Set([...help.keys(), ...values.keys()]);
      const out: string[] = [];
      for (const name of names) {
        out.push(`# HELP ${name} ${help.get(name) ?? name}`, `# TYPE ${name} counter`);
        const series = values.get(name);
        if (!series || series.size === 0) out.push(`${name} 0`);
        else for (const [labels, count] of series) out.push(`${name}${labels} ${count}`);
      }
      return `${out.join('\n')}\n`;
    },
  };
}
