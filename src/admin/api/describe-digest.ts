import type { EventSummary } from '../../store/store.js';
import { SWITCHYARD_SOURCE } from '../../noise/switchyard-source.js';

export interface DigestFacts {
  readonly route: string;
  readonly target: string;
  readonly digestId: string;
  /** Every event the digest collected. */
  readonly count: number;
  /** The events it carries (the first `max_events`), oldest first. */
  readonly eventIds: readonly string[];
}

/**
 * What a digest event (`switchyard.digest`, see buildDigestEvent) stands for, read from its body; null for any
 * other event. A digest is not routed by the rules: its route made it for one target, so an event's page shows
 * this instead of how the rules would route the digest's envelope (no route matches `switchyard.digest`).
 */
export function describeDigest(event: EventSummary, body: unknown): DigestFacts | null {
  if (event.source !== SWITCHYARD_SOURCE.name || event.kind !== 'switchyard.digest') return null;
  const { data, group } = (body ?? {}) as { data?: Record<string, unknown>; group?: Record<string, unknown> };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const ids = Array.isArray(group?.event_ids) ? group.event_ids.filter((id) => typeof id === 'string') : [];
  return {
    route: text(data?.route) || (event.matchedRoutes[0] ?? ''),
    target: text(data?.target),
    digestId: text(data?.digest_id),
    count: typeof group?.count === 'number' ? group.count : ids.length,
    eventIds: ids,
  };
}
