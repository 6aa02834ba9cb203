/** Who did a repair, when, and why: written with it, in the same transaction, to the `repairs` audit trail. */
export interface RepairAudit {
  /** The operator (`--by`, else the OS user) or the admin API key's name. */
  readonly actor: string;
  readonly reason: string;
  /** ms since the epoch. */
  readonly at: number;
}

export type RepairAction = 'skip' | 'references-set' | 'references-clear';

/** One repair as the audit trail keeps it. */
export interface StoredRepair extends RepairAudit {
  readonly id: number;
  readonly action: RepairAction;
  readonly target: string;
  readonly key: string | null;
  readonly deliveryId: string | null;
  /** The values set (JSON); null for a skip or a clear. */
  readonly detail: string | null;
}

/** What a skip came to: the delivery now skipped, or why nothing changed. */
export type SkipResult = 'skipped' | 'unknown' | 'not-dead';

/**
 * Repairs by hand of a correlation key's line (docs/delivery.md#repairing-a-key), each recorded in `repairs`
 * in its own transaction. A skip takes a dead delivery only: a pending one may be in flight, a held one holds
 * nothing back, and a delivered one is done.
 */
export interface RepairJournal {
  /** Moves a dead delivery to `skipped` (its `last_error` says who skipped it and why), freeing its key's line. */
  skipDelivery(id: string, audit: RepairAudit): Promise<SkipResult>;
  /**
   * Replaces a target's references for a key (`values`), or removes them (`null`: the next event creates).
   * `unknown-key` (nothing changed) when the journal has neither a delivery of that target with that key nor
   * references for it: a typo, most likely. (A repair by hand: the probe may read every delivery.)
   */
  setReferences(
    target: string,
    key: string,
    values: Readonly<Record<string, string>> | null,
    audit: RepairAudit,
  ): Promise<'set' | 'unknown-key'>;
  /** The audit trail, newest first, narrowed to a target and key when given. */
  findRepairs(filter: {
    readonly target?: string;
    readonly key?: string;
    readonly limit: number;
  }): Promise<StoredRepair[]>;
}

/** The `last_error` a skip by hand leaves on the delivery. */
export function skippedByHand(audit: RepairAudit): string {
  return `skipped by ${audit.actor}: ${audit.reason}`;
}
