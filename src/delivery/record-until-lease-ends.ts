import type { Clock } from '../clock.js';

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
 * Records a finished attempt, trying again while the journal refuses (a database restart, a locked file) until
 * the claim's lease ends. A result that is kept is a delivery not sent twice; one given up on is still safe:
 * the lease runs out and the delivery is sent again (at least once). Resolves true once recorded. A record
 * whose claim has meanwhile been taken over is skipped by the journal itself, so trying late is harmless.
 */
export async function recordUntilLeaseEnds(record: () => Promise<void>, options: RecordRetryOptions): Promise<boolean> {
  const { clock, signal, leaseEnd, maxWaitMs = 5_000 } = options;
  let wait = options.firstWaitMs ?? 250;
  for (;;) {
    try {
      await record();
      return true;
    } catch (error) {
      if (signal.aborted || clock.now() + wait >= leaseEnd) throw error;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    wait = Math.min(wait * 2, maxWaitMs);
  }
}
