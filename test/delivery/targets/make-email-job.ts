import { createHash } from 'node:crypto';
import type { DeliveryJob } from '../../../src/delivery/target.js';

let sequence = 0;

/** A delivery job for an event whose envelope is `{ event, timestamp, data }`. */
export function makeEmailJob(
  options: {
    kind?: string;
    data?: Record<string, unknown>;
    deliveryId?: string;
    idempotencyKey?: string;
    attempt?: number;
  } = {},
): DeliveryJob {
  sequence += 1;
  const deliveryId = options.deliveryId ?? `dlv_${sequence}`;
  const kind = options.kind ?? 'incident.created';
  const data = options.data ?? { incident_id: 'inc_1', severity: 'critical', title: 'Suspicious login' };
  const envelope = { event: kind, timestamp: '2026-11-22T10:00:00Z', data };
  const body = Buffer.from(JSON.stringify(envelope));
  return {
    deliveryId,
    idempotencyKey: options.idempotencyKey ?? deliveryId,
    attempt: options.attempt ?? 1,
    envelope,
    event: {
      id: `evt_01JDQ3V5W8X9Y0Z1A2B3C4D5E${sequence % 10}`,
      source: 'monitor',
      kind,
      severity: typeof data['severity'] === 'string' ? data['severity'] : null,
      occurredAt: envelope.timestamp,
      receivedAt: Date.UTC(2026, 10, 22, 10, 0, 1),
      body,
      bodySha256: createHash('sha256').update(body).digest('hex'),
      rulesVersion: 'rules-v1',
      matchedRoutes: ['critical'],
    },
  };
}
