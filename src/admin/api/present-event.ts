import type { EventSummary, StoredEvent } from '../../store/store.js';

/** An event without its body, for listings; `receivedAt` as ISO 8601, `occurredAt` as the sender wrote it. */
export function presentEventSummary(event: EventSummary) {
  return {
    id: event.id,
    source: event.source,
    kind: event.kind,
    severity: event.severity,
    occurredAt: event.occurredAt,
    receivedAt: new Date(event.receivedAt).toISOString(),
    bodySha256: event.bodySha256,
    rulesVersion: event.rulesVersion,
    matchedRoutes: event.matchedRoutes,
  };
}

/**
 * One event with its body as parsed JSON: exactly what the sender signed, which holds none of Switchyard's
 * secrets (the signature header is not stored). Ingest stored only bodies that parsed, so `null` here means a
 * journal written by something else.
 */
export function presentEvent(event: StoredEvent) {
  let body: unknown = null;
  try {
    body = JSON.parse(event.body.toString('utf8'));
  } catch {
    // Left null, as documented above.
  }
  return { ...presentEventSummary(event), body };
}
