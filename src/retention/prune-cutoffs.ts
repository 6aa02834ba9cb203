import type { RetentionConfig } from '../config/config.js';
import type { PruneCutoffs } from '../store/prune-request.js';

/**
 * Which events and dead letters may go at `now`. The dedupe window wins over a shorter retention: an event is
 * the evidence that a later identical body is a duplicate, so none is removed while it can still serve as one
 * (deleting it would let a sender's retry be routed and delivered a second time). A dead letter is kept at
 * least as long as an event, and an incident record that was not resolved at least as long as its events.
 */
export function pruneCutoffs(retention: RetentionConfig, dedupeWindowMs: number, now: number): PruneCutoffs {
  const eventsMs = Math.max(retention.eventsMs, dedupeWindowMs);
  const cutoffs = { eventsBefore: now - eventsMs, deadBefore: now - Math.max(retention.deadMs, eventsMs) };
  const idleMs = retention.incidentsIdleMs;
  return idleMs === undefined ? cutoffs : { ...cutoffs, incidentsIdleBefore: now - Math.max(idleMs, eventsMs) };
}
