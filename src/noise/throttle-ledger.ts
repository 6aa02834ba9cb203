import type { ThrottleCheck } from '../store/noise-journal.js';

/** What the journal holds of a throttle key: read when the ledger first meets the key, written as it changes. */
export interface ThrottleSeed {
  /** When the deliveries let through after `since` were created, oldest first (at most `max` of them). */
  readonly sentAt: readonly number[];
  /** How many were suppressed since the last one let through. */
  readonly suppressed: number;
}

export interface ThrottleDecision {
  readonly suppressed: boolean;
  /** For a delivery let through: how many the throttle suppressed since the previous one (else 0). */
  readonly count: number;
}

export interface ThrottleLedger {
  decide(check: ThrottleCheck, at: number): ThrottleDecision;
  /** The keys decided about since the last call, as the journal should now hold them. */
  takeChanges(): Map<string, ThrottleSeed>;
  /** Forgets every key (after a rolled-back transaction): they are read from the journal again. */
  clear(): void;
}

interface KeyState {
  readonly windowMs: number;
  readonly max: number;
  /** Let-through times, ascending; entries before `head` have left the window. */
  readonly sentAt: number[];
  head: number;
  suppressed: number;
}

/**
 * Throttle decisions kept in memory for a journal with a single writer (SQLite: the daemon holds its lock), so
 * that a throttled delivery costs no reads: each key is read from the journal once (`seed`), then decided here;
 * the caller writes `takeChanges()` back in the same transaction, once per key however many deliveries it
 * decided, and must `clear()` when that transaction rolls back. At most `capacity` keys are kept (least
 * recently used leave; a key seen again is read again), and a key keeps only the let-through times still in
 * its window, at most `max`.
 */
export function createThrottleLedger(
  seed: (check: ThrottleCheck, since: number) => ThrottleSeed,
  capacity = 50_000,
): ThrottleLedger {
  const states = new Map<string, KeyState>();
  // The states themselves, so a key evicted before the write still gets written.
  const changed = new Map<string, KeyState>();
  const stateOf = (check: ThrottleCheck, at: number): KeyState => {
    const known = states.get(check.key);
    states.delete(check.key);
    // A reload that changed the window or max needs what the journal holds under the new ones.
    if (known !== undefined && known.windowMs === check.windowMs && known.max === check.max) {
      states.set(check.key, known);
      return known;
    }
    const { sentAt, suppressed } = seed(check, at - check.windowMs);
    const state: KeyState = { windowMs: check.windowMs, max: check.max, sentAt: [...sentAt], head: 0, suppressed };
    states.set(check.key, state);
    if (states.size > capacity) states.delete(states.keys().next().value as string);
    return state;
  };
  return {
    decide(check, at) {
      const state = stateOf(check, at);
      changed.set(check.key, state);
      const since = at - check.windowMs;
      while (state.head < state.sentAt.length && (state.sentAt[state.head] ?? 0) <= since) state.head += 1;
      if (state.sentAt.length - state.head >= check.max) {
        state.suppressed += 1;
        return { suppressed: true, count: 0 };
      }
      const count = state.suppressed;
      state.suppressed = 0;
      state.sentAt.push(at);
      // Only the last `max` can still matter; compact once the dropped part outgrows the kept one.
      if (state.sentAt.length - state.head > check.max) state.head = state.sentAt.length - check.max;
      if (state.head > 64 && state.head * 2 > state.sentAt.length) {
        state.sentAt.splice(0, state.head);
        state.head = 0;
      }
      return { suppressed: false, count };
    },
    takeChanges() {
      const changes = new Map<string, ThrottleSeed>();
      for (const [key, state] of changed) {
        changes.set(key, { sentAt: state.sentAt.slice(state.head), suppressed: state.suppressed });
      }
      changed.clear();
      return changes;
    },
    clear() {
      states.clear();
      changed.clear();
    },
  };
}
