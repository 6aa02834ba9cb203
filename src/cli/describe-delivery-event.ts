import { asRecord, readEventDetails } from '../delivery/targets/read-event-details.js';
import type { Store, StoredEvent } from '../store/store.js';

/** What a person needs to recognise the event behind a delivery: its kind, severity and title. */
export interface DeliveryEvent {
  readonly kind: string | null;
  readonly severity: string | null;
  /** `data.title` of the envelope, or null when the event has none. */
  readonly title: string | null;
}

/**
 * The events of `eventIds`, each read once, described for listings: as stored, what the sender wrote. The
 * table makes it safe for a terminal (deliveries-command.ts); JSON output escapes it.
 */
export async function describeDeliveryEvents(
  store: Store,
  eventIds: readonly string[],
): Promise<Map<string, DeliveryEvent>> {
  const described = new Map<string, DeliveryEvent>();
  for (const id of new Set(eventIds)) {
    const event = await store.getEvent(id);
    described.set(id, {
      kind: event?.kind ?? null,
      severity: event?.severity ?? null,
      title: event === undefined ? null : titleOf(event),
    });
  }
  return described;
}

/** `data.title` as the default messages read it (readEventDetails), or null when the body has none. */
function titleOf(event: StoredEvent): string | null {
  try {
    const envelope: unknown = JSON.parse(event.body.toString('utf8'));
    return readEventDetails(asRecord(envelope).data).title ?? null;
  } catch {
    return null;
  }
}
