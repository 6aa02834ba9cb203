import type { Logger } from '../log/logger.js';

/**
 * Runs `pass` every `intervalMs`, never two at once (a slow pass skips ticks rather than piling up); a failed
 * pass is logged with `failure` and retried at the next tick. `stop` waits for a pass in flight. For the
 * background jobs of noise control, whose state is all in the journal, so a skipped tick loses nothing.
 */
export function runEvery(
  intervalMs: number,
  pass: () => Promise<void>,
  log: Logger,
  failure: string,
): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= pass()
      .catch((error: unknown) => {
        log.error(failure, { error: String(error) });
      })
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
