import { performance } from 'node:perf_hooks';
import type { AttemptRecord, Store } from '../src/store/store.js';

export interface StoreTimes {
  claimMs: number;
  claimCalls: number;
  recordMs: number;
  recordCalls: number;
  nextDueMs: number;
  nextDueCalls: number;
  /** The shared journal's circuit and pause verdicts (PostgreSQL only; its claims count as claimDue). */
  reportMs: number;
  reportCalls: number;
}

/**
 * The store with a stopwatch on the engine's hot calls. better-sqlite3 is synchronous, so the time until each
 * call returns its promise is the journal's whole share of the event loop (statements and fsync). PostgreSQL
 * is asynchronous (`settled`): there the stopwatch runs until the promise settles, the call's latency (round
 * trips, the server's work, waiting for a pooled connection), which the event loop spends on other work.
 * `recorded` hears of every group of attempts once it is committed.
 */
export function timedStore(
  store: Store,
  recorded: (records: readonly AttemptRecord[]) => void,
  settled = false,
): { store: Store; times: StoreTimes } {
  const times: StoreTimes = {
    claimMs: 0,
    claimCalls: 0,
    recordMs: 0,
    recordCalls: 0,
    nextDueMs: 0,
    nextDueCalls: 0,
    reportMs: 0,
    reportCalls: 0,
  };
  /** Adds the call's time (until it returns, or until it settles) through `add`, and passes its promise on. */
  const timed = <T>(call: () => Promise<T>, add: (ms: number) => void): Promise<T> => {
    const started = performance.now();
    const promise = call();
    if (!settled) {
      add(performance.now() - started);
      return promise;
    }
    return promise.finally(() => add(performance.now() - started));
  };
  // On a shared journal the engine claims through the shared pacing, not claimDue: time those calls instead.
  const pacing = store.sharedTargets;
  return {
    times,
    store: {
      ...store,
      ...(pacing === undefined
        ? {}
        : {
            sharedTargets: {
              ...pacing,
              claim(request) {
                times.claimCalls += 1;
                return timed(
                  () => pacing.claim(request),
                  (ms) => (times.claimMs += ms),
                );
              },
              report(verdicts) {
                times.reportCalls += 1;
                return timed(
                  () => pacing.report(verdicts),
                  (ms) => (times.reportMs += ms),
                );
              },
            },
          }),
      claimDue(request) {
        times.claimCalls += 1;
        return timed(
          () => store.claimDue(request),
          (ms) => (times.claimMs += ms),
        );
      },
      recordAttempts(records) {
        times.recordCalls += 1;
        return timed(
          () => store.recordAttempts(records),
          (ms) => (times.recordMs += ms),
        ).then((count) => {
          recorded(records);
          return count;
        });
      },
      nextDueAt(target) {
        times.nextDueCalls += 1;
        return timed(
          () => store.nextDueAt(target),
          (ms) => (times.nextDueMs += ms),
        );
      },
    },
  };
}
