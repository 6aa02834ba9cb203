import type { DeliveryJob } from '../delivery/target.js';
import { limitDepth } from './limit-depth.js';
import type { TemplateContext } from './template.js';

/**
 * The envelope's top-level fields as templates see them (`event`, `timestamp`, `data`, and any extra field the
 * upstream adds), plus what Switchyard knows about this delivery under `switchyard`, which wins on a clash.
 * Parts nested past `MAX_SHOWN_DEPTH` read as a marker, so no template (or its `json` filter) fails on depth.
 */
export function buildTemplateContext(job: DeliveryJob): TemplateContext {
  return {
    ...(limitDepth(job.envelope) as TemplateContext),
    switchyard: {
      event_id: job.event.id,
      delivery_id: job.deliveryId,
      source: job.event.source,
      attempt: job.attempt,
      received_at: new Date(job.event.receivedAt).toISOString(),
      severity: job.event.severity,
    },
    // Issue 12: deliveries a throttle held back since the previous one it let through (0 without a throttle).
    suppressed: { count: job.suppressedCount ?? 0 },
  };
}
