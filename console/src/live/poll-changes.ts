import type { Changes } from '../api/api-types.js';

export interface ChangesPollerDeps {
  readonly fetchChanges: (after: string | undefined) => Promise<Changes>;
  readonly onChanges: (changes: Changes) => void;
  /** Called with each failure (the poller keeps going, slower); `null` once a poll succeeds again. */
  readonly onError: (error: unknown) => void;
  readonly isVisible: () => boolean;
  /** Calls back when the page's visibility changes; returns the unsubscribe. */
  readonly onVisibilityChange: (listener: () => void) => () => void;
  readonly setTimer: (run: () => void, ms: number) => unknown;
  readonly clearTimer: (timer: unknown) => void;
  readonly intervalMs?: number;
  readonly maxBackoffMs?: number;
  /** The pause before the next poll when the last answer said `more` (catching up after a burst). */
  readonly catchUpMs?: number;
}

/**
 * Live updates by polling GET /changes, bounded: one request at a time, every 2 s while the page is visible and
 * not at all while it is hidden (a background tab costs the daemon nothing), backing off to 30 s while the API
 * fails. The first poll (no cursor) only learns where "now" is; later ones bring what happened since. An answer
 * with `more` is followed after 200 ms rather than 2 s: at 2 s per bounded answer the page would fall further
 * behind with every poll once more than 50 events a second arrive.
 */
export function startChangesPoller(deps: ChangesPollerDeps): { stop(): void } {
  const interval = deps.intervalMs ?? 2000;
  const maxBackoff = deps.maxBackoffMs ?? 30_000;
  const catchUp = deps.catchUpMs ?? 200;
  let more = false;
  let cursor: string | undefined;
  let timer: unknown = null;
  let inFlight = false;
  let stopped = false;
  let failures = 0;

  const schedule = (ms: number) => {
    if (stopped || timer !== null || inFlight || !deps.isVisible()) return;
    timer = deps.setTimer(() => {
      timer = null;
      void poll();
    }, ms);
  };

  async function poll(): Promise<void> {
    if (stopped || !deps.isVisible()) return;
    inFlight = true;
    try {
      const changes = await deps.fetchChanges(cursor);
      const first = cursor === undefined;
      cursor = changes.cursor;
      more = changes.more === true;
      if (failures > 0) deps.onError(null);
      failures = 0;
      if (!first && !stopped) deps.onChanges(changes);
    } catch (error) {
      failures += 1;
      if (!stopped) deps.onError(error);
    } finally {
      inFlight = false;
    }
    if (failures > 0) schedule(Math.min(maxBackoff, interval * 2 ** failures));
    else schedule(more ? catchUp : interval);
  }

  const unsubscribe = deps.onVisibilityChange(() => {
    if (deps.isVisible()) {
      // Back in view: catch up at once rather than after a full interval.
      if (timer !== null) deps.clearTimer(timer);
      timer = null;
      if (!inFlight) void poll();
    } else if (timer !== null) {
      deps.clearTimer(timer);
      timer = null;
    }
  });
  void poll();
  return {
    stop() {
      stopped = true;
      unsubscribe();
      if (timer !== null) deps.clearTimer(timer);
      timer = null;
    },
  };
}
