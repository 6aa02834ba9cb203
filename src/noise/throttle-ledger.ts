import type { ThrottleCheck } from '../store/noise-journal.js';

/** A throttle key as the journal holds it. */
export interface ThrottleSeed {
  /** When the deliveries it let through were created, oldest first (those that can still count). */
  readonly sentAt: readonly number[];
  /** How many it suppressed since the last one let through. */
  readonly suppressed: number;
}

export interface ThrottleDecision {
  readonly suppressed: boolean;
  /** For a delivery let through: how many the throttle suppressed since the previous one (else 0). */
  readonly count: number;
}

export interface ThrottleLedger {
  decide(check: ThrottleCheck, at: number): ThrottleDecision;
  /** Reads a key from the journal, if it is not known yet, and counts it as changed. */
  touch(key: string): void;
  /** The keys changed since the last call, as the journal should now hold them. */
  takeChanges(): Map<string, ThrottleSeed>;
  /** Forgets every key (after a rolled-back transaction): they are read from the journal again. */
  clear(): void;
}

interface KeyState {
  /** Let-through times, ascending; entries before `head` no longer count. */
  readonly sentAt: number[];
  head: number;
  suppressed: number;
  /** The window and max of the last decision, and its time: what the journal needs to keep. */
  windowMs: number;
  max: number;
  lastAt: number;
  /** Whether it is in `changed` (a flag, so that a decision costs one map lookup, not three). */
  pending: boolean;
}

/**
 * Throttle decisions kept in memory for a journal with a single writer (SQLite: the daemon holds its lock), so
 * that a throttled delivery costs no reads and no writes of its own: a key is read from the journal once
 * (`seed`), then decided here, and the caller writes `takeChanges()` back when it chooses (once a second, say).
 * It must `clear()` when a transaction that decided rolls back. At most `capacity` keys are kept in memory
 * (the oldest leave; changed ones stay until taken), and a key keeps only the let-through times that can
 * still count: those in its window, at most `max`.
 */
export function createThrottleLedger(seed: (key: string) => ThrottleSeed, capacity = 50_000): ThrottleLedger {
  const states = new Map<string, KeyState>();
  // By reference, so a key that left `states` before it was written is still written, and found again.
  const changed = new Map<string, KeyState>();
  const stateOf = (key: string): KeyState => {
    let state = states.get(key) ?? changed.get(key);
    if (state !== undefined) return state;
    const { sentAt, suppressed } = seed(key);
    state = { sentAt: [...sentAt], head: 0, suppressed, windowMs: Infinity, max: Infinity, lastAt: 0, pending: false };
    states.set(key, state);
    if (states.size > capacity) states.delete(states.keys().next().value as string);
    return state;
  };
  const markChanged = (key: string, state: KeyState): void => {
    if (state.pending) return;
    state.pending = true;
    changed.set(key, state);
  };
  return {
    decide(check, at) {
      let state = states.get(check.key);
      if (state === undefined) {
        state = stateOf(check.key);
        // Back among the kept keys (it may have left them while waiting to be written).
        if (!states.has(check.key)) states.set(check.key, state);
      }
      markChanged(check.key, state);
      state.windowMs = check.windowMs;
      state.max = check.max;
      state.lastAt = at;
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
    touch(key) {
      markChanged(key, stateOf(key));
    },
    takeChanges() {
      const changes = new Map<string, ThrottleSeed>();
      for (const [key, state] of changed) {
        state.pending = false;
        const since = state.lastAt - state.windowMs;
        const kept = state.sentAt.slice(state.head).filter((at) => at > since);
        changes.set(key, { sentAt: kept.slice(Math.max(0, kept.length - state.max)), suppressed: state.suppressed });
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
