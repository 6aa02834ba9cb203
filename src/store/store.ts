import type { PruneBatchResult, PruneCounts, PruneCutoffs, PruneRequest } from './prune-request.js';
import type { SharedTargets } from './shared-targets.js';
import type { DeliveryCount, DeliveryState, SendState } from './delivery-state.js';
import type { DeliveryFilter, EventFilter, EventSummary, ReplaySelection } from './listing-filters.js';
import type { NoiseJournal } from './noise-journal.js';
import type { IngestItem, IngestResult } from './ingest-item.js';
import type { ConsoleJournal } from './console-journal.js';
import type { IncidentJournal } from './incident-journal.js';
import type { RepairJournal } from './repair-journal.js';

export { DELIVERY_STATES, type DeliveryState, type HeldState, type SendState } from './delivery-state.js';
export type { DeliveryHold, ThrottleCheck } from './noise-journal.js';
export type { FollowCandidate, IngestItem, IngestResult, NewEvent } from './ingest-item.js';
export type {
  DeliveryFilter,
  DeliveryPosition,
  EventFilter,
  EventSummary,
  ListOrder,
  ReplaySelection,
} from './listing-filters.js';

/**
 * The journal's narrow interface (pg-boss style): everything above it speaks only these methods, so the
 * embedded SQLite journal and the shared PostgreSQL one are interchangeable and run the same contract tests.
 * Every method is async even where SQLite is synchronous, because PostgreSQL is not.
 */

export interface StoredEvent {
  readonly id: string;
  readonly source: string;
  readonly kind: string;
  readonly severity: string | null;
  readonly occurredAt: string;
  readonly receivedAt: number;
  readonly body: Buffer;
  readonly bodySha256: string;
  readonly rulesVersion: string;
  readonly matchedRoutes: readonly string[];
}

export interface StoredDelivery {
  readonly id: string;
  readonly eventId: string;
  readonly target: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** ms since the epoch; when the delivery engine should next try it. */
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Issue 14: the rendered correlation key, or null for a target without one. */
  readonly correlationKey?: string | null;
  /**
   * Issue 14: a pending delivery held behind an earlier one with the same target and key (listings only):
   * that delivery's id and state (`dead` = it waits until the predecessor is replayed and delivered).
   */
  readonly waitingFor?: { readonly id: string; readonly state: DeliveryState } | undefined;
  /** For a held delivery: the silence id, interval, throttle or digest that held it (issue 12); else null. */
  readonly heldBy?: string | null;
}

/** What one attempt came to, as the engine records it. */
export type AttemptOutcome = 'delivered' | 'retry' | 'dead' | 'skipped';

export interface StoredAttempt {
  readonly deliveryId: string;
  /** 1-based; keeps counting across replays. */
  readonly number: number;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly outcome: AttemptOutcome;
  /** HTTP status or SMTP reply code, when there was one. */
  readonly statusCode: number | null;
  /** Short error or response excerpt, secrets and URLs redacted. */
  readonly detail: string | null;
}

/** A due delivery taken by the engine: it holds it (under `claimToken`) until it records the attempt. */
export interface ClaimedDelivery {
  readonly delivery: StoredDelivery;
  readonly event: StoredEvent;
  readonly claimToken: string;
  /** When the budget of `max_age` started: the event's receipt, or the delivery's last replay (ms). */
  readonly retryFrom: number;
  /** Attempts counted against `max_attempts` since the last replay (`delivery.attempts` counts them all). */
  readonly scheduleAttempts: number;
  /** How many times the delivery was replayed after being delivered: part of its idempotency key. */
  readonly generation: number;
  /** Issue 12: how many deliveries its throttle suppressed since the one before it (`{{ suppressed.count }}`). */
  readonly suppressedCount?: number;
  /**
   * Issue 14: the values captured so far for this delivery's target and correlation key (`{{ ref.* }}`), or
   * null when nothing was delivered yet for the key (or its last resolve cleared them): the "first event".
   * Null too for a delivery that started its key (a replayed create): it is sent as the create it was.
   */
  readonly references?: Readonly<Record<string, string>> | null;
}

/** Issue 14: what a target remembers about one correlation key (a ticket key, a Slack `ts`). */
export interface StoredReference {
  readonly target: string;
  readonly key: string;
  readonly values: Readonly<Record<string, string>>;
  /** ms since the epoch of the last delivered delivery that wrote them. */
  readonly updatedAt: number;
}

export interface ReferenceFilter {
  readonly target?: string | undefined;
  readonly key?: string | undefined;
  readonly limit: number;
}

export interface ClaimRequest {
  readonly target: string;
  readonly now: number;
  readonly limit: number;
  /** The claim expires (the delivery is due again) this long after `now`, should the process die. */
  readonly leaseMs: number;
}

/** One finished attempt and what follows from it, as decided by the engine. */
export interface AttemptRecord {
  readonly deliveryId: string;
  readonly claimToken: string;
  /** False for an attempt that does not count against `max_attempts` (the receiver rate limited it). */
  readonly counted?: boolean;
  readonly attempt: Omit<StoredAttempt, 'deliveryId' | 'number'>;
  /**
   * Issue 14, for a delivery with a correlation key that is now delivered: values to merge into the key's
   * references (an empty object still marks the key as started), or `clear` after a delivered resolve, so the
   * next event of the key starts afresh. Written in the same transaction as the attempt. `started`: the
   * delivery was its key's first (sent with no references): a replay of it is sent as a create again.
   */
  readonly references?:
    | { readonly merge: Readonly<Record<string, string>>; readonly started?: boolean }
    | { readonly clear: true }
    | undefined;
  readonly next: {
    readonly state: SendState;
    readonly nextAttemptAt: number;
    readonly lastError: string | null;
  };
}

export interface Store extends NoiseJournal, ConsoleJournal, IncidentJournal, RepairJournal {
  /**
   * Present on a journal that several engines share (PostgreSQL): per-target pacing kept in the journal, which
   * the engine then uses instead of its in-memory pacing. Absent where the engine is the journal's only one.
   */
  readonly sharedTargets?: SharedTargets;
  /**
   * Applies pending numbered migrations; safe to call on every start. The other methods reject with
   * `journal_not_migrated` on a journal whose schema is behind (a new one included), and every method rejects
   * with `journal_schema_too_new` on a journal migrated by a newer Switchyard.
   */
  migrate(): Promise<void>;
  /**
   * Commits all items in ONE transaction (group commit): each event with its deliveries, or, for a
   * duplicate within the dedupe window, nothing. Items are applied in order, so a duplicate inside the same
   * group is detected too. Rejects with a `SwitchyardError` coded `journal_unavailable` when the journal
   * cannot take writes (disk full, locked, read-only); then nothing of the group was written.
   */
  ingest(items: readonly IngestItem[]): Promise<IngestResult[]>;
  getEvent(id: string): Promise<StoredEvent | undefined>;
  /** Events matching the filter, bodies left out, in id order (see `EventFilter.order`). */
  findEvents(filter: EventFilter): Promise<EventSummary[]>;
  /** The event's deliveries ordered by target name; empty for an unknown event. */
  listDeliveries(eventId: string): Promise<StoredDelivery[]>;
  getDelivery(id: string): Promise<StoredDelivery | undefined>;
  /** Deliveries matching the filter, by (`createdAt`, `id`), oldest first unless `order` says `newest`. */
  findDeliveries(filter: DeliveryFilter): Promise<StoredDelivery[]>;
  /** The attempts of one delivery, oldest first; empty for an unknown id. */
  listAttempts(deliveryId: string): Promise<StoredAttempt[]>;
  /**
   * Takes up to `limit` due pending deliveries of one target, oldest first, with their events, and leases
   * them: until recorded or released, no other claim returns them before `now + leaseMs`.
   */
  claimDue(request: ClaimRequest): Promise<ClaimedDelivery[]>;
  /**
   * Records finished attempts in ONE transaction: each attempt row and its delivery's new state. A record
   * whose claim is no longer held (it expired and was claimed again) is skipped; returns how many applied.
   */
  recordAttempts(records: readonly AttemptRecord[]): Promise<number>;
  /** Gives claims back without an attempt (shutdown before sending); each is due again at `nextAttemptAt`. */
  releaseClaims(claims: readonly { deliveryId: string; claimToken: string; nextAttemptAt: number }[]): Promise<void>;
  /**
   * Releases every claim at once, making those deliveries due now: for a journal with a single engine (SQLite),
   * at start-up, since any claim then was left by a process that died mid-attempt.
   */
  releaseAllClaims(now: number): Promise<number>;
  /** When the target's earliest pending delivery is due (claimed ones included), or undefined when none. */
  nextDueAt(target: string): Promise<number | undefined>;
  /**
   * Re-queues dead (and with `includeDelivered`, delivered) deliveries as new attempts: due at `now`, a fresh
   * retry budget counted from `now`, history and `attempts` kept; a delivered one moves to its next generation
   * (a new idempotency key). Pending and held ones are left alone (replayable-sql.ts). Returns the ids re-queued.
   */
  replay(selection: ReplaySelection, now: number): Promise<string[]>;
  /**
   * Dead-letters every pending delivery of one target, with `reason` as the last error and no attempt
   * recorded: for deliveries whose target the rules no longer define (they can be replayed once it is back).
   * Returns how many.
   */
  deadLetterTarget(target: string, reason: string, now: number): Promise<number>;
  /**
   * Deliveries per target and state, for the `switchyard_deliveries` gauge. It reads every delivery: SQLite
   * does it a slice of deliveries per turn of the event loop (count-in-slices.ts), so that a large journal
   * does not hold the daemon's thread for the whole count (issue 11).
   */
  countByTarget(): Promise<DeliveryCount[]>;
  /**
   * The targets that have pending deliveries, for the engine's sweep for orphans: read through the pending
   * deliveries' index, where `countByTarget` reads every delivery (0.4 s on a million, issue 11).
   */
  pendingTargets(): Promise<string[]>;
  /** Issue 14: the references remembered per target and key, most recently written first (admin API). */
  findReferences(filter: ReferenceFilter): Promise<StoredReference[]>;
  /**
   * Resolves when the journal answers a trivial query, and with `write`, when it can also start a write
   * transaction (taken and rolled back at once); rejects like the other methods otherwise (readiness).
   */
  ping(options?: { readonly write?: boolean }): Promise<void>;
  /** Row counts, for health output and for tests that assert nothing was written. */
  counts(): Promise<{ events: number; deliveries: number }>;
  /**
   * A number that changes whenever another connection committed to the journal (SQLite's `data_version`): a
   * CLI command beside the daemon, say. Lets the daemon re-read silences before the next event instead of at
   * its next timer. Absent on PostgreSQL, where instances re-read on a timer (every second).
   */
  changesByOthers?(): Promise<number>;
  /** Idempotent; afterwards every method rejects with `journal_closed`. */
  close(): Promise<void>;
  /**
   * Retention: removes, in ONE short transaction, the finished events among the next `limit` events after
   * `after` (see PruneRequest), with their deliveries and attempts, then gives the space back where the backend
   * can (SQLite: incremental_vacuum). Never removes an event with a pending delivery. On PostgreSQL only one
   * instance prunes at a time: the others get `busy`.
   */
  pruneBatch(request: PruneRequest): Promise<PruneBatchResult>;
  /** What pruning with these cutoffs would remove now (`switchyard prune --dry-run`); changes nothing. */
  countPrunable(cutoffs: PruneCutoffs): Promise<PruneCounts>;
  /** The journal's size on disk in bytes (SQLite: the file and its WAL; PostgreSQL: its tables with indexes). */
  journalSize(): Promise<number>;
}
