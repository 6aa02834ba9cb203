import type { NewEvent, StoredEvent } from './store.js';

/**
 * Issue 12, digests (`group:`): one grouping decision to take at ingest, inside the ingest transaction. The
 * delivery is created `grouped`, held by the open digest of its target and key (made when none is open): the
 * first is due `waitMs` after its first event, the next no sooner than `intervalMs` after the previous one was
 * sent.
 */
export interface GroupCheck {
  readonly route: string;
  /** The route and the rendered `by` values: events with the same one share a digest. */
  readonly key: string;
  readonly waitMs: number;
  readonly intervalMs: number;
  readonly maxEvents: number;
  /**
   * The id of the digest to open if none is open for this target and key; the journal makes one when absent
   * (at ingest: most grouped deliveries join an open digest, and an id made per delivery cost about 1 µs).
   */
  readonly digestId?: string;
}

/** An open digest as the store hands it to the builder when it is due. */
export interface DueDigest {
  readonly id: string;
  readonly route: string;
  readonly target: string;
  readonly groupKey: string;
  readonly count: number;
  readonly maxEvents: number;
  readonly firstAt: number;
}

/** Builds the digest's own event (`switchyard.digest`) from the first `maxEvents` events it holds, oldest first. */
export type DigestBuilder = (digest: DueDigest, events: readonly StoredEvent[]) => NewEvent;
