/** What bench/delivery-bench.ts hands its child processes, and the JSON lines they print back. */

/** A PostgreSQL journal: the schema the engine works on, already migrated and filled. */
export interface PostgresJournalSpec {
  readonly url: string;
  readonly schema: string;
  readonly poolSize: number;
}

export interface EngineRunOptions {
  /** The checkout: the engine is loaded from its compiled `dist/`. */
  readonly root: string;
  /** The SQLite journal's file; unused when `postgres` is given. */
  readonly journal: string;
  readonly postgres?: PostgresJournalSpec;
  readonly rulesFile: string;
  readonly logLevel: string;
  /**
   * `throughput`: run until `expected` deliveries are finished. `memory`: run `settleMs`, then read RSS.
   * `fleet`: one of several engines on a shared journal, none of which can tell when all is delivered: say
   * `ready` once loaded, start on `go` and stop on `stop` (lines on stdin), then print a ThroughputResult of
   * its own share (see engine-fleet.ts).
   */
  readonly mode: 'throughput' | 'memory' | 'fleet';
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
  readonly reportMs: number;
  readonly reportCalls: number;
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
  /** Engine processes on the journal (PostgreSQL fleet); the figures above are their sums (RSS: the largest). */
  readonly instances?: number;
  /** CPU time of the PostgreSQL server's processes over the run (Linux only; other clients' work included). */
  readonly postgresCpuUs?: number;
  /** Average cores in use machine-wide over the run (Linux only). */
  readonly machineBusyCores?: number;
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
