export interface RefusalLogLimitOptions {
  /** How long one window lasts; whoever runs the limit closes it (a timer in the daemon). */
  readonly intervalMs: number;
  /** At most this many refusal lines per window, whatever the addresses. */
  readonly maxLines: number;
}

/** One line per address per 10 s and at most 20 lines in those 10 s. */
export const DEFAULT_REFUSAL_LOG_LIMIT: RefusalLogLimitOptions = { intervalMs: 10_000, maxLines: 20 };

export interface RefusalLogLimit {
  /** Whether the refusal from `address` is logged; if not, it is counted for the window's summary. */
  admit(address: string): boolean;
  /** True while a window is open (the first refusal opens one). */
  isOpen(): boolean;
  /** Closes the window: how many refusals it left out of the log. */
  close(): number;
}

/**
 * Decides which refusals reach the log, so that a flood of wrong credentials cannot flood the log too: one
 * line per address per window and a cap on lines per window. The addresses remembered are those logged in
 * the current window, so memory is bounded by `maxLines`.
 */
export function createRefusalLogLimit(options: RefusalLogLimitOptions = DEFAULT_REFUSAL_LOG_LIMIT): RefusalLogLimit {
  let open = false;
  const logged = new Set<string>();
  let left = 0;
  return {
    admit(address) {
      open = true;
      if (logged.has(address) || logged.size >= options.maxLines) {
        left += 1;
        return false;
      }
      logged.add(address);
      return true;
    },
    isOpen: () => open,
    close() {
      const count = left;
      open = false;
      logged.clear();
      left = 0;
      return count;
    },
  };
}
