/** One target's state as the engine reports it, for health, the admin API and the console. */
export interface TargetStatus {
  readonly target: string;
  /**
   * Attempts started and not answered yet, with those answered but failed whose record is not committed (and,
   * on PostgreSQL, every answered one until its record has committed).
   */
  readonly inFlight: number;
  /**
   * Attempts the target answered (delivered) whose record the journal has not committed yet. On SQLite the
   * first `concurrency` of them no longer hold a slot (delivery.md, step 3); past that they do, so a lane
   * with a slow journal can show nothing in flight and up to twice its concurrency here, sending nothing
   * more until they commit. Always 0 on PostgreSQL, where a slot is free only at the record.
   */
  readonly awaitingRecord: number;
  readonly circuit: 'closed' | 'open' | 'half-open';
  /** While the circuit is open: when it lets the next probe through (ms; always ahead of now). */
  readonly nextProbeAt?: number | undefined;
  /** While the target asked for a pause (`Retry-After`, a 429): when it ends (ms; always ahead of now). */
  readonly pausedUntil?: number | undefined;
}
