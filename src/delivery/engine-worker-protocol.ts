import type { MetricDeltas } from '../admin/metric-deltas.js';
import type { ReloadTrigger } from '../rules/create-live-rules.js';
import type { TargetStatus } from './target-status.js';

/** What the daemon gives the delivery engine's worker thread: enough to load the same config it did. */
export interface EngineWorkerData {
  readonly configFile: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** How often the engine looks for due deliveries when nothing wakes it. */
  readonly pollIntervalMs: number | undefined;
}

/** Main thread to worker. */
export type ToEngineWorker =
  /** `targets` absent: every target (see DeliveryEngine.wake). */
  | { readonly type: 'wake'; readonly targets?: readonly string[] }
  | { readonly type: 'reload'; readonly trigger: ReloadTrigger }
  | { readonly type: 'stop'; readonly deadlineMs: number };

/** Worker to main thread. Log lines go through the daemon's own log stream, in order. */
export type FromEngineWorker =
  | { readonly type: 'started' }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'status'; readonly status: readonly TargetStatus[] }
  /** The engine's counter increments and histogram observations since the last report, for the daemon's /metrics. */
  | { readonly type: 'metrics'; readonly deltas: MetricDeltas }
  | { readonly type: 'log'; readonly line: string }
  | { readonly type: 'stopped' };

/** How often the worker reports its targets' state and its metrics (the admin API's and the scrape's view of the engine). */
export const STATUS_EVERY_MS = 500;
