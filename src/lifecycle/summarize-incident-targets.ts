import type { IncidentHistory } from '../store/incident-journal.js';
import type { DeliveryState } from '../store/delivery-state.js';
import { RESOLVING_KINDS } from './choose-situation.js';

/** What one target was sent for an incident, and what it keeps for it. */
export interface IncidentTargetSummary {
  readonly target: string;
  /** Delivered deliveries by the request a lifecycle target makes for them (choose-situation.ts). */
  readonly created: number;
  readonly updated: number;
  readonly resolved: number;
  readonly lastDelivery: { readonly id: string; readonly eventId: string; readonly state: DeliveryState };
  /** The references the target keeps for the key of its newest keyed delivery; null when none. */
  readonly references: Readonly<Record<string, string>> | null;
}

/**
 * Per target, from the incident's kept deliveries in id order: each delivered one counted as the request it
 * made, read as the targets choose it: a resolve for a resolving kind, a create for the first delivered
 * since the start or the last resolve (which clears the key's references), an update otherwise. Derived at
 * read time, not stored: the deliveries and references already say it.
 */
export function summarizeIncidentTargets(history: IncidentHistory): IncidentTargetSummary[] {
  const kinds = new Map(history.events.map((event) => [event.id, event.kind]));
  const summaries = new Map<string, IncidentTargetSummary & { started: boolean; key: string | null }>();
  for (const delivery of history.deliveries) {
    const before = summaries.get(delivery.target);
    const counts = { created: before?.created ?? 0, updated: before?.updated ?? 0, resolved: before?.resolved ?? 0 };
    let started = before?.started ?? false;
    if (delivery.state === 'delivered') {
      if (RESOLVING_KINDS.has(kinds.get(delivery.eventId) ?? '')) {
        counts.resolved += 1;
        started = false;
      } else {
        counts[started ? 'updated' : 'created'] += 1;
        started = true;
      }
    }
    summaries.set(delivery.target, {
      target: delivery.target,
      ...counts,
      started,
      key: delivery.correlationKey ?? before?.key ?? null,
      lastDelivery: { id: delivery.id, eventId: delivery.eventId, state: delivery.state },
      references: null,
    });
  }
  return [...summaries.values()].map(({ started: _started, key, ...summary }) => ({
    ...summary,
    references: history.references.find((r) => r.target === summary.target && r.key === key)?.values ?? null,
  }));
}
