import type { Metrics } from '../admin/metrics.js';
import type { Clock } from '../clock.js';
import type { RetentionConfig } from '../config/config.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import { pruneCutoffs } from './prune-cutoffs.js';
import { runPrunePass, type PrunePassResult } from './run-prune-pass.js';

export interface PrunerOptions {
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  readonly metrics: Metrics;
  readonly retention: RetentionConfig;
  readonly dedupeWindowMs: number;
  /** Before the first pass, so start-up is not slowed; default one minute. */
  readonly firstPassAfterMs?: number | undefined;
  /** Between two batches of a pass; default 10 ms. */
  readonly pauseMs?: number | undefined;
}

export interface Pruner {
  /** Stops the schedule and the pass in flight (after its current batch); resolves once it has. */
  stop(): Promise<void>;
}

/**
 * Journal retention in the background: a pass shortly after start, then every `retention.interval`, each
 * removing what the cutoffs allow in small batches (run-prune-pass.ts). Registers the journal size gauge
 * whether or not retention is enabled. A failed pass (journal unavailable) is logged and retried at the next
 * interval; it never stops the daemon.
 */
export function startPruner(options: PrunerOptions): Pruner {
  const { store, log, clock, metrics, retention } = options;
  metrics.onScrape(async () => {
    try {
      metrics.set('switchyard_journal_size_bytes', {}, await store.journalSize());
    } catch {
      // Journal unreachable: the last value stays; /readyz says why.
    }
  });
  if (!retention.enabled) return { stop: async () => {} };

  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const record = (result: PrunePassResult, startedAt: number) => {
    const rows = {
      events: result.events,
      deliveries: result.deliveries,
      attempts: result.attempts,
      dead_letters: result.deadLetters,
    };
    for (const [table, count] of Object.entries(rows)) {
      metrics.increment('switchyard_journal_pruned_rows_total', { table }, count);
      if (!result.busy && !result.aborted) metrics.set('switchyard_journal_last_prune_rows', { table }, count);
    }
    if (result.busy || result.aborted) return;
    metrics.set('switchyard_last_prune_timestamp_seconds', {}, clock.now() / 1000);
    if (result.events > 0) {
      log.info('journal pruned', { ...rows, batches: result.batches, ms: Math.round(performance.now() - startedAt) });
    }
  };
  const pass = async () => {
    const startedAt = performance.now();
    try {
      const cutoffs = pruneCutoffs(retention, options.dedupeWindowMs, clock.now());
      const pauseMs = options.pauseMs ?? 10;
      record(
        await runPrunePass({ store, cutoffs, batchSize: retention.batchSize, pauseMs, signal: abort.signal }),
        startedAt,
      );
    } catch (error) {
      log.warn('journal prune failed; retrying at the next interval', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = pass().then(() => {
        if (!abort.signal.aborted) schedule(retention.intervalMs);
      });
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstPassAfterMs ?? 60_000);
  return {
    async stop() {
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
