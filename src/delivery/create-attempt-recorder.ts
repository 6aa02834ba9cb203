import type { Metrics } from '../admin/metrics.js';
import type { Clock } from '../clock.js';
import { createGroupCommit } from '../ingest/group-commit.js';
import type { Logger } from '../log/logger.js';
import type { AttemptRecord, Store } from '../store/store.js';
import { recordUntilLeaseEnds } from './record-until-lease-ends.js';
import type { SettleContext } from './settle-attempt.js';

/**
 * Finished attempts are recorded in groups, one transaction per group, like ingest; a record the journal
 * refuses is tried again until its claim's lease ends or shutdown (`signal`).
 */
export function createAttemptRecorder(deps: {
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  readonly metrics: Metrics;
  readonly signal: AbortSignal;
}): { readonly context: SettleContext; drain(): Promise<void> } {
  const { store, log, clock, signal } = deps;
  const writer = createGroupCommit(async (records: readonly AttemptRecord[]) => {
    const applied = await store.recordAttempts(records);
    if (applied < records.length) {
      // Only when an attempt outlived its lease (a clock jump, a stalled process) and was claimed again.
      log.warn('attempt records skipped: their claims had expired', { skipped: records.length - applied });
    }
    return records.map(() => undefined);
  });
  return {
    context: {
      store,
      log,
      metrics: deps.metrics,
      record: async (record, leaseEnd) => {
        await recordUntilLeaseEnds(() => writer.submit(record), { leaseEnd, clock, signal });
      },
    },
    drain: () => writer.drain(),
  };
}
