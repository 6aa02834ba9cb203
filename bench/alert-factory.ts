import { randomBytes } from 'node:crypto';
import type { SignedEvent } from './signed-event.js';

/**
 * The pipeline benchmark's load for Alertmanager (bench/alertmanager-target.ts): one alert per request, as
 * `POST /api/v2/alerts` takes it, with the same fields as the signed events (a distinct incident id, 50 hosts,
 * a title). The labels are all distinct, so with `group_by: ['...']` every alert is its own notification.
 * No `startsAt`: Alertmanager then stamps the time it received the alert, which the benchmark reads back as
 * the receipt time. The signature is unused (Alertmanager has none) but keeps the load generator's shape.
 */
export function createAlertFactory(): () => SignedEvent {
  const run = randomBytes(4).toString('hex');
  let counter = 0;
  return () => {
    counter += 1;
    const body = JSON.stringify([
      {
        labels: {
          alertname: 'BenchIncident',
          incident_id: `inc_${run}_${counter}_${Math.random().toString(36).slice(2, 8)}`,
          host: `host-${counter % 50}`,
          severity: 'high',
        },
        annotations: { title: `Benchmark incident ${counter}: suspicious login burst` },
      },
    ]);
    return { body, signature: '' };
  };
}
