import { performance } from 'node:perf_hooks';
import type { AttemptRecord, Store } from '../src/store/store.js';

export interface StoreTimes {
  claimMs: number;
  claimCalls: number;
  recordMs: number;
  recordCalls: number;
  nextDueMs: number;
  nextDueCalls: number;
}

/**
 * The store with a stopwatch on the engine's hot calls. better-sqlite3 is synchronous, so the time until each
 * call returns its promise is the journal's whole share of the event loop (statements and fsync). `recorded`
 * hears of every group of attempts once it is committed.
 */
export function timedStore(
  store: Store,
  recorded: (records: readonly AttemptRecord[]) => void,
): { store: Store; times: StoreTimes } {
  const times: StoreTimes = { claimMs: 0, claimCalls: 0, recordMs: 0, recordCalls: 0, nextDueMs: 0, nextDueCalls: 0 };
  return {
    times,
    store: {
      ...store,
      claimDue(request) {
        const started = performance.now();
        const claims = store.claimDue(request);
        times.claimMs += performance.now() - started;
        times.claimCalls += 1;
        return claims;
      },
      recordAttempts(records) {
        const started = performance.now();
        const applied = store.recordAttempts(records);
        times.recordMs += performance.now() - started;
        times.recordCalls += 1;
        return applied.then((count) => {
          recorded(records);
          return count;
        });
      },
      nextDueAt(target) {
        const started = performance.now();
        const due = store.nextDueAt(target);
        times.nextDueMs += performance.now() - started;
        times.nextDueCalls += 1;
        return due;
      },
    },
  };
}
