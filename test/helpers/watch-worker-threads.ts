import type { Worker } from 'node:worker_threads';
import { afterEach } from 'vitest';

export interface WatchedWorker {
  readonly worker: Worker;
  /** Whether the thread has ended (its 'exit' event was seen). */
  readonly exited: () => boolean;
  /** Resolves with the exit code when the thread ends. */
  readonly exit: Promise<number>;
}

/**
 * Every worker thread this test process starts from now on, through Node's own `process.on('worker')` event
 * (Node >= 16.2), so that tests can see the delivery worker's lifecycle, and end it as a crash would, without
 * any hook in the daemon's code. Stops watching after the current test.
 */
export function watchWorkerThreads(): readonly WatchedWorker[] {
  const seen: WatchedWorker[] = [];
  const onWorker = (worker: Worker): void => {
    let exited = false;
    const exit = new Promise<number>((resolve) =>
      worker.once('exit', (code) => {
        exited = true;
        resolve(code);
      }),
    );
    seen.push({ worker, exited: () => exited, exit });
  };
  process.on('worker', onWorker);
  afterEach(() => void process.off('worker', onWorker));
  return seen;
}
