import { createHash } from 'node:crypto';
import { newId } from '../../src/store/new-id.js';
import type { IngestItem } from '../../src/store/store.js';

export const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
export const DAY_MS = 24 * 60 * 60 * 1000;

let sequence = 0;

/** A valid ingest item; every call gets a distinct body (so no accidental duplicate) unless `body` is given. */
export function makeIngestItem(
  options: {
    source?: string;
    body?: string | Buffer;
    receivedAt?: number;
    dedupeWindowMs?: number;
    targets?: readonly string[];
    severity?: string | null;
  } = {},
): IngestItem {
  sequence += 1;
  const receivedAt = options.receivedAt ?? T0;
  const body =
    typeof options.body === 'string'
      ? Buffer.from(options.body)
      : (options.body ??
        Buffer.from(
          `{"event":"incident.created","timestamp":"2026-11-22T10:00:00Z","data":{"incident_id":"inc_${sequence}"}}`,
        ));
  return {
    event: {
      id: newId('evt_', receivedAt),
      source: options.source ?? 'monitor',
      kind: 'incident.created',
      severity: options.severity === undefined ? 'high' : options.severity,
      occurredAt: '2026-11-22T10:00:00Z',
      receivedAt,
      body,
      bodySha256: createHash('sha256').update(body).digest('hex'),
      rulesVersion: 'rules-v1',
      matchedRoutes: ['critical-incidents', 'everything'],
    },
    targets: options.targets ?? ['soc-slack', 'oncall-mail'],
    dedupeSince: receivedAt - (options.dedupeWindowMs ?? 7 * DAY_MS),
  };
}
