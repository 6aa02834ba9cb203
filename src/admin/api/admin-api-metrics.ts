import type { MetricDefinition } from '../metrics.js';
import { AUTH_FAILURES_METRIC } from './create-auth-refusals.js';

/**
 * The admin API's metrics, to declare with the daemon's (SWITCHYARD_METRICS): `Metrics` refuses undeclared
 * names. The reason is one of a fixed set, so requests cannot grow the series.
 */
export const ADMIN_API_METRICS: readonly MetricDefinition[] = [
  {
    name: AUTH_FAILURES_METRIC,
    help: 'Admin API and /metrics requests refused, by reason: missing, malformed, invalid (no such key), scope, disabled, throttled (429 after repeated wrong credentials).',
    type: 'counter',
    labels: ['reason'],
  },
];
