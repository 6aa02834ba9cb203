import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import { SwitchyardError } from '../switchyard-error.js';

export interface RecordRetryOptions {
  /** When the claim's lease ends: after that the journal gives the delivery to another claim, so stop. */
  readonly leaseEnd: number;
  readonly clock: Clock;
  /** Shutdown past its grace period: stop trying (the lease takes over). */
  readonly signal: AbortSignal;
  /** First wait between tries (ms), doubled each time up to `maxWaitMs`. */
  readonly firstWaitMs?: number;
  readonly maxWaitMs?: number;
}

/**
 * Records a finished attempt, trying again while the journal is unavailable (a database restart, a locked
 * file) until the claim's lease ends. A result that is kept is a delivery not sent twice; one given up on is
 * still safe: the lease runs out and the delivery is sent again (at least once). Any other error is final at
 * once (trying again would fail the same way). A record whose claim has meanwhile been taken over is skipped by
 * the journal itself, so trying late is harmless. Resolves true once recorded.
 */
export async function recordUntilLeaseEnds(record: () => Promise<void>, options: RecordRetryOptions): Promise<boolean> {
  const { clock, signal, leaseEnd, maxWaitMs = 5_000 } = options;
  let wait = options.firstWaitMs ?? 250;
  for (;;) {
    try {
      await record();
      return true;
    } catch (error) {
      const unavailable = error instanceof SwitchyardError && error.code === 'journal_unavailable';
      if (!unavailable || signal.aborted || clock.now() + wait >= leaseEnd) throw error;
      // An abort ends the wait early (and the next check gives up); the timer never outlives it.
      await sleep(wait, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) throw error;
    }
    wait = Math.min(wait * 2, maxWaitMs);
  }
}
