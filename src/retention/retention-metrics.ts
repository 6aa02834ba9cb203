import type { MetricDefinition } from '../admin/metrics.js';

/** What /metrics says about the journal's size and its pruning (src/retention/start-pruner.ts). */
export const RETENTION_METRICS: readonly MetricDefinition[] = [
  {
    name: 'switchyard_journal_size_bytes',
    help: 'The journal on disk, read at scrape time: SQLite file and WAL, or the PostgreSQL tables with their indexes.',
    type: 'gauge',
  },
  {
    name: 'switchyard_last_prune_timestamp_seconds',
    help: 'When this instance last finished a retention pass (Unix time); absent until the first.',
    type: 'gauge',
  },
  {
    name: 'switchyard_journal_last_prune_rows',
    help: 'Rows the last finished retention pass removed, by table (events, deliveries, attempts, dead_letters).',
    type: 'gauge',
    labels: ['table'],
  },
  {
    name: 'switchyard_journal_pruned_rows_total',
    help: 'Rows removed by retention since start, by table (events, deliveries, attempts, dead_letters).',
    type: 'counter',
    labels: ['table'],
  },
];
