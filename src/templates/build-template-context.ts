import type { DeliveryJob } from '../delivery/target.js';
import type { TemplateContext } from './template.js';

/**
 * The envelope's top-level fields as templates see them (`event`, `timestamp`, `data`, and any extra field the
 * upstream adds), plus what Switchyard knows about this delivery under `switchyard`, which wins on a clash.
 */
export function buildTemplateContext(job: DeliveryJob): TemplateContext {
  return {
    ...job.envelope,
    switchyard: {
      event_id: job.event.id,
      delivery_id: job.deliveryId,
      source: job.event.source,
      attempt: job.attempt,
      received_at: new Date(job.event.receivedAt).toISOString(),
      severity: job.event.severity,
    },
  };
}
