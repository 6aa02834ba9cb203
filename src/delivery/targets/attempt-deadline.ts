export interface AttemptDeadline {
  /** Aborts when the engine's signal does or when the attempt's time is up. */
  readonly signal: AbortSignal;
  timedOut(): boolean;
  /** Clears the timer and the listener on the engine's signal; call when the attempt settles. */
  dispose(): void;
}

/**
 * One attempt's own signal. Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: the engine's signal lives
 * as long as the daemon, and on Node 20 `any()` keeps every dependent signal registered on it
 * (https://github.com/nodejs/node/issues/55351), one per attempt. Here the listener is removed when done.
 */
export function attemptDeadline(signal: AbortSignal, timeoutMs: number): AttemptDeadline {
  const controller = new AbortController();
  let expired = false;
  const onAbort = (): void => controller.abort(signal.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose() {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}
