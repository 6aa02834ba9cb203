import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CpuUse } from './cpu-sample.js';

export interface LoadOptions {
  /**
   * Full URLs to POST to, e.g. `http://127.0.0.1:43123/webhooks/monitor`: one per instance of the server.
   * autocannon hands the connections out to them in turn, so 64 connections over 3 instances are 22/21/21.
   */
  readonly urls: readonly string[];
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** Signed events made before the run starts; enough for warm-up plus measurement at the expected rate. */
  readonly poolSize: number;
  /** The server processes whose CPU use is reported (see cpu-sample.ts). */
  readonly serverPids: readonly number[];
  /**
   * Requests per second over all connections (autocannon's `overallRate`): an open loop, so that every target
   * handles the same events per second and their CPU per request compares code, not batching. Default: as fast
   * as answers come (a closed loop).
   */
  readonly overallRate?: number;
  /** What each request carries: a signed event (the default), or an alert for Alertmanager's API. */
  readonly body?: 'event' | 'alert';
  /**
   * Where the server answers `{"backlog": n}`, the accepted events whose work is still to be done (the `append`
   * floor's): after the load, its CPU is read again once that is 0 and counted with the load's.
   */
  readonly backlogUrl?: string;
}

export interface LoadResult {
  /** Mean of autocannon's per-second samples over the measured part (warm-up excluded). */
  readonly requestsPerSecond: number;
  /** Latency percentiles of 2xx responses, in milliseconds (autocannon's histogram has 1 ms resolution). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Events signed during the run because the pool ran out (0 when the pool was large enough). */
  readonly madeLive: number;
  /** Cores in use during warm-up and measurement (Linux only): the machine, the servers, PostgreSQL. */
  readonly cpu?: CpuUse;
  /** Cores the load generator itself used meanwhile. */
  readonly loadCores: number;
  /** With `backlogUrl`: the backlog as the load ended, and how long it took to reach 0. */
  readonly backlog?: { readonly atEnd: number; readonly drainedMs: number };
}

const LOAD_SCRIPT = fileURLToPath(new URL('./load.ts', import.meta.url));

/**
 * Runs bench/load.ts (autocannon) in its own process, so the load generator never shares an event loop with
 * the server under test, and returns the JSON line it prints.
 */
export function runLoad(options: LoadOptions, secret: string): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', LOAD_SCRIPT, JSON.stringify(options)], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, BENCH_SECRET: secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4096)));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) {
        reject(new Error(`load generator failed (exit ${code}):\n${stderr}${stdout}`));
        return;
      }
      resolve(JSON.parse(line) as LoadResult);
    });
  });
}
