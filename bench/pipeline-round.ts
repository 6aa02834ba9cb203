import { readFileSync } from 'node:fs';
import type { ChildServer } from './child-server.js';
import { cpuSnapshot } from './cpu-sample.js';
import { startBackendCpu } from './postgres-backend-cpu.js';
import type { PipelineJournal } from './pipeline-journals.js';
import { runLoad, type LoadResult } from './run-load.js';
import { median } from './summarize.js';

/**
 * One daemon of the pipeline benchmark, or several instances sharing one PostgreSQL journal: their processes,
 * the journal and the receiver they all deliver to. The load is spread over `ingestUrls` (one per instance).
 */
export interface PipelineDaemon {
  readonly name: string;
  readonly servers: readonly ChildServer[];
  readonly journal: PipelineJournal;
  /** On PostgreSQL: the `application_name` of the instances' connections; the server's CPU is measured too. */
  readonly postgresApplication: string | undefined;
  readonly receiver: ChildServer;
  readonly ingestUrls: readonly string[];
  /** What the load sends: signed events, or alerts for Alertmanager (bench/alertmanager-target.ts). */
  readonly loadBody?: 'event' | 'alert';
}

/** What one round of load against one daemon measured, from the load generator, the journal and the receiver. */
export interface PipelineRound {
  readonly load: LoadResult;
  /** Events the journal accepted during the round. */
  readonly events: number;
  /** Deliveries that arrived at the receiver no later than the last event was received. */
  readonly deliveredDuringLoad: number;
  /** From the first event received to the last delivery, in seconds. */
  readonly untilLastSeconds: number;
  /** From the last event received to the last delivery, in seconds: the backlog left after the load. */
  readonly afterLoadSeconds: number;
  /** events / untilLastSeconds. */
  readonly endToEndPerSecond: number;
  /** Receive (journal) to delivered (receiver), in milliseconds. */
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /**
   * The daemon's CPU time (utime + stime, all threads; with several instances, all of them together) per
   * event: during the load, and up to the last delivery.
   */
  readonly cpuPerEventLoadUs: number;
  readonly cpuPerEventTotalUs: number;
  /** PostgreSQL's processes (all of the server's, from /proc) per event, to the last delivery; NaN on SQLite. */
  readonly postgresCpuPerEventUs: number;
  /** The backends serving these instances only (their `application_name`), per event, to the last delivery. */
  readonly backendCpuPerEventUs: number;
  /** Requests the receiver got beyond one per event (retries after a timeout; 0 expected). */
  readonly extraDeliveries: number;
}

/** utime + stime of one process in clock ticks (USER_HZ = 100), from /proc/<pid>/stat. */
export function processTicks(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  return (await response.json()) as T;
}

const receiverCount = async (receiver: ChildServer): Promise<number> =>
  (await getJson<{ received: number }>(`${receiver.origin}/count`)).received;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/**
 * Loads the daemon for `durationSeconds`, waits until the receiver has one delivery per event the journal
 * accepted since the round began (at most `drainTimeoutMs` after the load), and computes the figures.
 */
export async function runPipelineRound(
  daemon: PipelineDaemon,
  load: { connections: number; durationSeconds: number; poolSize: number },
  secret: string,
  drainTimeoutMs = 300_000,
): Promise<PipelineRound> {
  const { journal } = daemon;
  const since = Date.now();
  const count0 = await receiverCount(daemon.receiver);
  const pids = daemon.servers.map((server) => server.pid);
  const ticks = () => pids.reduce((sum, pid) => sum + processTicks(pid), 0);
  const ticks0 = ticks();
  const { postgresApplication: application } = daemon;
  const postgres0 = application === undefined ? undefined : cpuSnapshot([])?.postgres;
  const backends =
    application === undefined || journal.backendPids === undefined
      ? undefined
      : await startBackendCpu(() => journal.backendPids?.(application) ?? Promise.resolve([]));
  // The backends are sampled until the last delivery; the sampler stops whichever way the round ends.
  let backendSeconds = Number.NaN;
  const { result, events, ticks1, postgres1 } = await (async () => {
    try {
      return await loadAndDrain(daemon, { ...load, warmupSeconds: 0, serverPids: pids }, secret, drainTimeoutMs, {
        since,
        count0,
        ticks,
        application,
      });
    } finally {
      backendSeconds = (await backends?.stop()) ?? Number.NaN;
    }
  })();
  const received = new Map<string, number>();
  const rows = await journal.received(since);
  let first = Infinity;
  let last = 0;
  for (const row of rows) {
    received.set(row.id, row.at);
    first = Math.min(first, row.at);
    last = Math.max(last, row.at);
  }
  const stamps = await getJson<[string, number][]>(`${daemon.receiver.origin}/stamps?from=${count0}`);
  const latencies: number[] = [];
  let lastDelivery = 0;
  let duringLoad = 0;
  for (const [id, at] of stamps) {
    const at0 = received.get(id);
    if (at0 === undefined) continue;
    received.delete(id); // the first arrival counts; a retried one is extra
    latencies.push(at - at0);
    lastDelivery = Math.max(lastDelivery, at);
    if (at <= last) duringLoad += 1;
  }
  latencies.sort((a, b) => a - b);
  const untilLastSeconds = (lastDelivery - first) / 1000;
  return {
    load: result,
    events,
    deliveredDuringLoad: duringLoad,
    untilLastSeconds,
    afterLoadSeconds: (lastDelivery - last) / 1000,
    endToEndPerSecond: events / untilLastSeconds,
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    cpuPerEventLoadUs: ((result.cpu?.processCores ?? Number.NaN) / result.requestsPerSecond) * 1e6,
    cpuPerEventTotalUs: ((ticks1 - ticks0) / 100 / events) * 1e6,
    postgresCpuPerEventUs:
      postgres0 === undefined || postgres1 === undefined ? Number.NaN : ((postgres1 - postgres0) / 100 / events) * 1e6,
    backendCpuPerEventUs: (backendSeconds / events) * 1e6,
    extraDeliveries: stamps.length - latencies.length,
  };
}

/** The load, then waiting until every event the journal accepted since `since` was delivered. */
async function loadAndDrain(
  daemon: PipelineDaemon,
  load: Omit<Parameters<typeof runLoad>[0], 'urls'>,
  secret: string,
  drainTimeoutMs: number,
  at: { since: number; count0: number; ticks: () => number; application: string | undefined },
): Promise<{ result: LoadResult; events: number; ticks1: number; postgres1: number | undefined }> {
  const result = await runLoad({ urls: daemon.ingestUrls, ...load, body: daemon.loadBody ?? 'event' }, secret);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${daemon.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `out of ${result.total} requests; the figures would be meaningless`,
    );
  }
  const deadline = Date.now() + drainTimeoutMs;
  const drain = async (events: number): Promise<void> => {
    let delivered = 0;
    while ((delivered = (await receiverCount(daemon.receiver)) - at.count0) < events) {
      if (Date.now() > deadline) throw new Error(`${daemon.name}: ${delivered} of ${events} delivered at the timeout`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  if (daemon.journal.readLoadsServer === true) {
    // Reading it costs the measured server CPU: first the answered requests' deliveries, the CPU, then the read.
    await drain(result.total);
    const ticks1 = at.ticks();
    const events = await daemon.journal.count(at.since);
    await drain(events);
    return { result, events, ticks1, postgres1: undefined };
  }
  const events = await daemon.journal.count(at.since);
  await drain(events);
  const postgres1 = at.application === undefined ? undefined : cpuSnapshot([])?.postgres;
  return { result, events, ticks1: at.ticks(), postgres1 };
}

/** `median (min-max)` of a figure over the rounds. */
export function spread(values: readonly number[], digits = 0): string {
  const f = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return `${f(median(values))} (${f(Math.min(...values))}-${f(Math.max(...values))})`;
}
