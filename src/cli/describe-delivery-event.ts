import type { Store, StoredEvent } from '../store/store.js';

/** What a person needs to recognise the event behind a delivery: its kind, severity and title. */
export interface DeliveryEvent {
  readonly kind: string | null;
  readonly severity: string | null;
  /** `data.title` of the envelope, or null when the event has none. */
  readonly title: string | null;
}

/**
 * The events of `eventIds`, each read once, described for listings. The title is what the sender wrote, so
 * control characters are replaced: an event body must not be able to drive the operator's terminal.
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

function titleOf(event: StoredEvent): string | null {
  let envelope: unknown;
  try {
    envelope = JSON.parse(event.body.toString('utf8'));
  } catch {
    return null;
  }
  const data = (envelope as { data?: unknown } | null)?.data;
  const title = typeof data === 'object' && data !== null ? (data as { title?: unknown }).title : undefined;
  // eslint-disable-next-line no-control-regex -- C0 and C1 controls, ESC included
  return typeof title === 'string' ? title.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ') : null;
}
