/**
 * What the retention pruner asks of the journal (see src/retention/). An event goes, with its deliveries and
 * their attempts, only when it was received before `eventsBefore` and every one of its deliveries became final
 * before `eventsBefore`, or before `deadBefore` for a dead one (dead letters have their own, longer limit). A
 * held delivery is final only once nothing can send it any more (unfinished-delivery-sql.ts). An event with a
 * pending delivery is never removed, however old.
 */
export interface PruneCutoffs {
  /** ms since the epoch. */
  readonly eventsBefore: number;
  /** ms since the epoch; an event with a dead letter finished at or after this instant stays. */
  readonly deadBefore: number;
  /**
   * ms since the epoch; an incident record not resolved but without events since this instant may go (once its
   * events' cutoff allows). Absent: only resolved records go.
   */
  readonly incidentsIdleBefore?: number;
}

export interface PruneRequest extends PruneCutoffs {
  /** Resume after this event id (the previous batch's `next`); undefined starts at the oldest event. */
  readonly after?: string | undefined;
  /** How many events one batch looks at, at most (one short transaction each). */
  readonly limit: number;
}

/** Rows removed, or that would be. `deadLetters` are the dead deliveries among `deliveries`. */
export interface PruneCounts {
  readonly events: number;
  readonly deliveries: number;
  readonly attempts: number;
  readonly deadLetters: number;
}

export interface PruneBatchResult extends PruneCounts {
  /**
   * Where the next batch resumes; undefined when this pass has reached events younger than the cutoff (or the
   * end of the journal). Events are looked at in id order, which is receipt order (ids are ULIDs of the receipt).
   */
  readonly next: string | undefined;
  /** Another instance is pruning this journal right now (PostgreSQL): nothing was done, try again later. */
  readonly busy: boolean;
}

export const NOTHING_PRUNED: PruneCounts = Object.freeze({ events: 0, deliveries: 0, attempts: 0, deadLetters: 0 });
