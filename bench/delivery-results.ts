/** What bench/delivery-bench.ts hands its child processes, and the JSON lines they print back. */

export interface EngineRunOptions {
  /** The checkout: the engine is loaded from its compiled `dist/`. */
  readonly root: string;
  readonly journal: string;
  readonly rulesFile: string;
  readonly logLevel: string;
  /** `throughput`: run until `expected` deliveries are finished. `memory`: run `settleMs`, then read RSS. */
  readonly mode: 'throughput' | 'memory';
  readonly expected: number;
  readonly settleMs: number;
  /** Give up (exit 1) when the throughput run has not finished by then. */
  readonly timeoutMs: number;
}

/** Wall time spent inside the journal's synchronous calls and in the synchronous part of `target.send`. */
export interface EngineTimings {
  readonly claimMs: number;
  readonly claimCalls: number;
  readonly recordMs: number;
  readonly recordCalls: number;
  readonly nextDueMs: number;
  readonly nextDueCalls: number;
  readonly sendSyncMs: number;
}

export interface ThroughputResult {
  /** Deliveries that reached `delivered` (the benchmark expects all of them). */
  readonly delivered: number;
  /** Attempts that did not deliver (retry or dead); 0 in a sound run. */
  readonly failed: number;
  readonly seconds: number;
  /** `process.cpuUsage()` of the engine's process over the run, all threads, user + system. */
  readonly cpuUs: number;
  readonly maxRssBytes: number;
  readonly timings: EngineTimings;
}

export interface MemoryResult {
  readonly pending: number;
  /** Attempts the engine made while settling: few, since the queue stays in the journal. */
  readonly attempts: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
}

export interface ClientRunOptions {
  readonly url: string;
  readonly requests: number;
  readonly concurrency: number;
}

export interface ClientResult {
  readonly requests: number;
  readonly seconds: number;
  readonly cpuUs: number;
}
