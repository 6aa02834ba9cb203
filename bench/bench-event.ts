import { createHash } from 'node:crypto';
import { newId } from '../src/store/new-id.js';
import type { NewEvent } from '../src/store/store.js';

/** A journal event of the benchmarks: an `incident.created` of severity high from `monitor`, with this body. */
export function benchEvent(body: Buffer, receivedAt: number, matchedRoutes: readonly string[]): NewEvent {
  return {
    id: newId('evt_', receivedAt),
    source: 'monitor',
    kind: 'incident.created',
    severity: 'high',
    occurredAt: new Date(receivedAt).toISOString(),
    receivedAt,
    body,
    bodySha256: createHash('sha256').update(body).digest('hex'),
    rulesVersion: 'bench',
    matchedRoutes,
  };
}
