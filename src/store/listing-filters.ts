import type { DeliveryState } from './delivery-state.js';
import type { StoredEvent } from './store.js';

/** What the listings (`deliveries`, `replay`, the admin API) select, and how they page. */

/**
 * Which deliveries `replay` re-queues: given ids, or every one matching a filter; dead ones, and delivered ones
 * only with `includeDelivered` (a resend the receiver already has), never pending or held ones.
 */
export type ReplaySelection = ({ readonly ids: readonly string[] } | { readonly filter: DeliveryFilter }) & {
  readonly includeDelivered?: boolean;
};

/** Listing order; `newest` is what a dashboard shows first. */
export type ListOrder = 'oldest' | 'newest';

/** Where a page of deliveries resumes: the sort key (`createdAt`, then `id`) of the last row of the previous page. */
export interface DeliveryPosition {
  readonly createdAt: number;
  readonly id: string;
}

/** Filters shared by `switchyard deliveries`, `switchyard replay` and the admin API. */
export interface DeliveryFilter {
  readonly state?: DeliveryState | undefined;
  /** Held deliveries held by this silence, interval, throttle or digest. */
  readonly heldBy?: string | undefined;
  readonly target?: string | undefined;
  readonly eventId?: string | undefined;
  /** Deliveries of events of this kind (`event` in the envelope). */
  readonly kind?: string | undefined;
  /** Issue 13: deliveries whose last error contains this text, ignoring case (ASCII case on SQLite). */
  readonly lastErrorContains?: string | undefined;
  /** Deliveries created at or after this instant (ms). */
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  /**
   * Keyset pagination: only deliveries strictly after this position in the listing order (for `newest`,
   * strictly before it in time), so pages stay stable while new deliveries arrive.
   */
  readonly after?: DeliveryPosition | undefined;
  /** Sorted by (`createdAt`, `id`); default `oldest` first. */
  readonly order?: ListOrder | undefined;
  /** Default 100. */
  readonly limit?: number | undefined;
}

/** An event without its body, for listings, with its stored title (null before migration 6, or none sent). */
export type EventSummary = Omit<StoredEvent, 'body'> & { readonly title?: string | null };

/** Which events `findEvents` returns; every field narrows the result. */
export interface EventFilter {
  readonly source?: string | undefined;
  readonly kind?: string | undefined;
  /** Issue 13: the severity as received (`data.severity`). */
  readonly severity?: string | undefined;
  /** Issue 13: events whose stored title contains this text, ignoring case (ASCII case on SQLite). */
  readonly titleContains?: string | undefined;
  /** Issue 13: scan no further than this event id (inclusive) in the listing order; see `eventIdAt`. */
  readonly stopAtId?: string | undefined;
  /** Events received at or after this instant (ms). */
  readonly since?: number | undefined;
  /** Events received before this instant (ms). */
  readonly until?: number | undefined;
  /** Events with at least one delivery to this target (and in `deliveryState`, when given too). */
  readonly target?: string | undefined;
  /** Events with at least one delivery in this state (to `target`, when given too). */
  readonly deliveryState?: DeliveryState | undefined;
  /** Keyset pagination: only events after this event id in the listing order. */
  readonly afterId?: string | undefined;
  /** Sorted by `id` (time-ordered: ingest makes ids from the receipt time); default `oldest` first. */
  readonly order?: ListOrder | undefined;
  /** Default 100. */
  readonly limit?: number | undefined;
}
