import type { Logger } from '../log/logger.js';
import { SwitchyardError } from '../switchyard-error.js';

/**
 * Runs `pass` every `intervalMs`, never two at once (a slow pass skips ticks rather than piling up); a failed
 * pass is logged with `failure` and retried at the next tick. `stop` waits for a pass in flight. For the
 * background jobs of noise control, whose state is all in the journal, so a skipped tick loses nothing.
 * A failure only a restart cures (the journal thread died: `untilRestart`) is logged once, not every tick:
 * the death itself is logged and /healthz fails, and a job ticking every second would flood the log.
 */
export function runEvery(
  intervalMs: number,
  pass: () => Promise<void>,
  log: Logger,
  failure: string,
): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  let lasting = false;
  const timer = setInterval(() => {
    running ??= pass()
      .catch((error: unknown) => {
        if (!lasting) log.error(failure, { error: String(error) });
        lasting = error instanceof SwitchyardError && error.untilRestart;
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
