/** One target's state as the engine reports it, for health, the admin API and the console. */
export interface TargetStatus {
  readonly target: string;
  readonly inFlight: number;
  readonly circuit: 'closed' | 'open' | 'half-open';
  /** While the circuit is open: when it lets the next probe through (ms; always ahead of now). */
  readonly nextProbeAt?: number | undefined;
  /** While the target asked for a pause (`Retry-After`, a 429): when it ends (ms; always ahead of now). */
  readonly pausedUntil?: number | undefined;
}
