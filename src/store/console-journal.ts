import type { DeliveryState } from './delivery-state.js';
import type { EventFilter } from './listing-filters.js';
import type { StoredDelivery } from './store.js';

/** One minute's events of one kind and severity (the console's overview chart). */
export interface EventsPerMinute {
  /** The minute's start, ms since the epoch. */
  readonly minute: number;
  readonly kind: string;
  readonly severity: string | null;
  readonly count: number;
}

/** What the overview shows of a target besides its counts: what is being retried, and the last error. */
export interface TargetHealth {
  readonly target: string;
  readonly pending: number;
  readonly dead: number;
  /** Pending deliveries that failed at least once (waiting for their next attempt). */
  readonly retrying: number;
  /** The last error of the most recently changed pending or dead delivery that has one. */
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
}

/** Where the console's live updates resume: the newest event seen, and the last delivery change seen. */
export interface ChangePosition {
  readonly eventId: string | null;
  readonly delivery: { readonly updatedAt: number; readonly id: string } | null;
}

/**
 * The journal's reads for the web console (issue 13), each bounded so that a page answers quickly with a
 * million events in the journal: time windows and keyset positions, never a count over everything.
 */
export interface ConsoleJournal {
  /**
   * The id of the event `offset` rows into the listing `filter` describes (its order and position), or
   * undefined when the listing is shorter: bounds how far a free-text search scans (`EventFilter.stopAtId`).
   */
  eventIdAt(filter: EventFilter, offset: number): Promise<string | undefined>;
  /**
   * Events received from the minute holding `since` on (that minute in full), counted by kind, severity and
   * bucket of `bucketMs` (a whole number of minutes, default one) from that minute on, buckets with events only;
   * read from the counts kept at ingest, not from the events.
   */
  eventsPerMinute(since: number, bucketMs?: number): Promise<EventsPerMinute[]>;
  /** Deliveries created at or after `since`, counted by state (states with none left out). */
  countDeliveriesByState(since: number): Promise<{ state: DeliveryState; count: number }[]>;
  /** Per target with pending or dead deliveries: how many are retrying, and the last error. */
  targetHealth(): Promise<TargetHealth[]>;
  /** Deliveries changed after `after` and before `before` (ms), in (updatedAt, id) order, at most `limit`. */
  findChangedDeliveries(
    after: { updatedAt: number; id: string },
    before: number,
    limit: number,
  ): Promise<StoredDelivery[]>;
  /** The newest event received, and the last delivery change, before `before` (ms): where live updates start. */
  latestChange(before: number): Promise<ChangePosition>;
}
