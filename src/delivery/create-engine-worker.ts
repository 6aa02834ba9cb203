import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { applyMetricDeltas } from '../admin/metric-deltas.js';
import type { Metrics } from '../admin/metrics.js';
import type { Logger } from '../log/logger.js';
import type { ReloadTrigger } from '../rules/create-live-rules.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { DeliveryEngine } from './delivery-engine.js';
import type { TargetStatus } from './target-status.js';
import type { EngineWorkerData, FromEngineWorker, ToEngineWorker } from './engine-worker-protocol.js';

export interface EngineWorker extends DeliveryEngine {
  /** Tells the worker's rules to reload (the main thread's reload by signal or admin API). */
  reloadRules(trigger: ReloadTrigger): void;
  /**
   * Why nothing is delivering: the thread ended after it started without being asked to stop (a crash, an
   * uncaught error, a kill). Null while it runs, and once it ended because `stop()` asked it to. Readiness and
   * the metrics report it.
   */
  failure(): string | null;
}

/**
 * How long the worker may take to report `started`. Its start loads the config and rules and makes a few
 * journal statements, each bounded (busy_timeout, PostgreSQL's connection and statement timeouts), so this
 * is far beyond a slow start; without it a worker stuck otherwise would hold the daemon's start forever.
 */
const ENGINE_WORKER_START_DEADLINE_MS = 30_000;

export interface EngineWorkerDeps {
  readonly log: Logger;
  readonly logStream: Writable;
  /** The daemon's metrics, to which the worker's engine counts are added. */
  readonly metrics: Pick<Metrics, 'increment' | 'observe'>;
  /** ENGINE_WORKER_START_DEADLINE_MS unless a test shortens it. */
  readonly startDeadlineMs?: number;
  /** The worker's module (engine-worker.ts): a test gives one that misbehaves. */
  readonly entry?: URL;
}

/**
 * The main thread's side of the delivery engine in a worker thread (engine-worker.ts): a `DeliveryEngine`
 * the daemon composes as it would the engine itself. `wake()` after every commit costs one message per turn
 * of the event loop, however many commits woke it; `status()` is the worker's last report (at most 500 ms
 * old); `stop()` gives the worker the shutdown grace and waits until it has recorded what finished and closed
 * its journal connection (or kills it 10 s after the grace).
 * A start that fails rejects only once the thread has ended: what it had opened (its journal connection, the
 * rules watcher) would otherwise keep it alive, unowned, since the daemon stops only an engine that started.
 * A start that does not report within the deadline fails the same way (`delivery_worker_start_timeout`).
 */
export function createEngineWorker(data: EngineWorkerData, deps: EngineWorkerDeps): EngineWorker {
  const ownSource = import.meta.url.endsWith('.ts');
  const entry = deps.entry ?? new URL(ownSource ? './engine-worker.ts' : './engine-worker.js', import.meta.url);
  // Under the tests (vitest runs the sources) the worker is a .ts file, loaded through tsx's loader, which
  // a worker does not inherit: a bootstrap registers it first.
  const source = entry.pathname.endsWith('.ts');
  const deadlineMs = deps.startDeadlineMs ?? ENGINE_WORKER_START_DEADLINE_MS;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  let worker: Worker | undefined;
  let status: readonly TargetStatus[] = [];
  let wakeQueued = false;
  let wokenTargets: Set<string> | undefined = new Set();
  let stopped: Promise<void> | undefined;
  let exited = false;
  let failure: string | null = null;
  // Nothing to tell a thread that has ended: its messages would go nowhere.
  const send = (message: ToEngineWorker): void => void (exited ? undefined : worker?.postMessage(message));
  return {
    start() {
      return new Promise<void>((resolve, reject) => {
        const current = source
          ? new Worker(bootstrap, { eval: true, workerData: data })
          : new Worker(entry, { workerData: data });
        worker = current;
        let started = false;
        let lastError: Error | undefined;
        const deadline = setTimeout(() => {
          const seconds = deadlineMs / 1000;
          const message = `the delivery worker did not start within ${seconds} s; its thread was ended`;
          lastError ??= new SwitchyardError('delivery_worker_start_timeout', message);
          void current.terminate(); // start() rejects on its 'exit'
        }, deadlineMs);
        current.on('message', (message: FromEngineWorker) => {
          if (message.type === 'log') deps.logStream.write(message.line);
          else if (message.type === 'status') status = message.status;
          else if (message.type === 'metrics') applyMetricDeltas(deps.metrics, message.deltas);
          else if (message.type === 'stopped')
            void current.terminate(); // done: nothing left to wait for
          else if (message.type === 'started') {
            if (lastError !== undefined) return; // too late: the thread is being ended, start() rejects
            started = true;
            clearTimeout(deadline);
            resolve();
          } else if (message.type === 'failed') {
            lastError ??= new Error(`the delivery worker failed to start: ${message.message}`);
            void current.terminate(); // start() rejects on its 'exit'
          }
        });
        current.on('error', (error) => {
          deps.log.error('the delivery worker failed', { error: error.message });
          lastError ??= error;
          if (!started) void current.terminate();
        });
        current.on('exit', (code) => {
          exited = true;
          clearTimeout(deadline);
          if (!started) return reject(lastError ?? new Error(`the delivery worker exited with code ${code}`));
          if (stopped !== undefined) return;
          // Its last report would show lanes that no longer exist: no status is the truth now.
          status = [];
          const why = lastError === undefined ? '' : `: ${lastError.message}`;
          failure = `the delivery worker thread exited with code ${code}${why}; deliveries wait for a restart`;
          deps.log.error('the delivery worker exited; deliveries wait for a restart', { code });
        });
      });
    },
    wake(targets) {
      if (stopped !== undefined || exited) return;
      // The turn's wakes in one message: every target once any wake named none.
      if (targets === undefined) wokenTargets = undefined;
      else if (wokenTargets !== undefined) for (const target of targets) wokenTargets.add(target);
      if (wakeQueued) return;
      wakeQueued = true;
      setImmediate(() => {
        wakeQueued = false;
        send(wokenTargets === undefined ? { type: 'wake' } : { type: 'wake', targets: [...wokenTargets] });
        wokenTargets = new Set();
      });
    },
    status: () => [...status],
    reloadRules: (trigger) => send({ type: 'reload', trigger }),
    failure: () => failure,
    stop(deadlineMs) {
      stopped ??= new Promise<void>((resolve) => {
        const current = worker;
        if (current === undefined || exited) return resolve(); // never started, or died: nothing to stop
        const kill = setTimeout(() => void current.terminate(), deadlineMs + 10_000);
        current.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        current.postMessage({ type: 'stop', deadlineMs } satisfies ToEngineWorker);
      });
      return stopped;
    },
  };
}
