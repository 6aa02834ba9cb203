import { setTimeout as sleep } from 'node:timers/promises';
import type { Store, StoredDelivery } from '../store/store.js';

export interface DeliveryProgress {
  readonly total: number;
  readonly delivered: number;
  /** Pending after at least one failed attempt. */
  readonly retrying: number;
  /** Pending, not tried yet (or waiting for the rate limit). */
  readonly waiting: number;
  readonly dead: number;
  readonly elapsedMs: number;
}

export interface WaitOptions {
  readonly journal: Store;
  readonly eventIds: readonly string[];
  readonly timeoutMs: number;
  readonly now: () => number;
  readonly onProgress: (progress: DeliveryProgress) => void;
  /** How often the journal is read; default 200 ms. */
  readonly intervalMs?: number;
}

/**
 * Reads the events' deliveries from the journal until none is pending (each is delivered or dead) or the
 * timeout passes. Returns the deliveries per event, in the order of `eventIds`.
 */
export async function waitForDeliveries(options: WaitOptions): Promise<StoredDelivery[][]> {
  const started = options.now();
  for (;;) {
    const perEvent = await Promise.all(options.eventIds.map((id) => options.journal.listDeliveries(id)));
    const all = perEvent.flat();
    const pending = all.filter((d) => d.state === 'pending');
    const elapsedMs = options.now() - started;
    options.onProgress({
      total: all.length,
      delivered: all.filter((d) => d.state === 'delivered').length,
      retrying: pending.filter((d) => d.attempts > 0).length,
      waiting: pending.filter((d) => d.attempts === 0).length,
      dead: all.filter((d) => d.state === 'dead').length,
      elapsedMs,
    });
    if (pending.length === 0 || elapsedMs >= options.timeoutMs) return perEvent;
    await sleep(options.intervalMs ?? 200);
  }
}
