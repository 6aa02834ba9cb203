import { MAX_EVENT_DEPTH } from '../../ingest/parse-envelope.js';
import type { EventSummary, StoredEvent } from '../../store/store.js';
import { limitDepth } from '../../templates/limit-depth.js';

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
    // Issue 13: data.title (else a top-level title) as stored at ingest; null before journal migration 6.
    title: (event as { title?: string | null }).title ?? null,
  };
}

/**
 * One event with its body as parsed JSON: exactly what the sender signed, which holds none of Switchyard's
 * secrets (the signature header is not stored). Ingest stored only bodies that parsed, so `null` here means a
 * journal written by something else. A body nested deeper than ingest now accepts (a journal from before that
 * limit) is shown cut at that depth: re-serialising it whole would overflow the stack and answer 500.
 */
export function presentEvent(event: StoredEvent) {
  let body: unknown = null;
  try {
    body = limitDepth(JSON.parse(event.body.toString('utf8')), MAX_EVENT_DEPTH);
  } catch {
    // Left null, as documented above.
  }
  return { ...presentEventSummary(event), body };
}
