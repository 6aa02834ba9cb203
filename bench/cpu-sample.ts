import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';

/**
 * Where the machine's cores went during a run, read from Linux's /proc (elsewhere: nothing). The benchmark's
 * processes, PostgreSQL and the load generator all share the 2 cores, so a throughput figure alone cannot
 * tell a slow journal from a saturated machine; these say which it is.
 */
export interface CpuSnapshot {
  readonly atMs: number;
  /** Machine-wide busy and total ticks from /proc/stat. */
  readonly busy: number;
  readonly total: number;
  /** Ticks of the given processes (user + system). */
  readonly pids: number;
  /**
   * Ticks of every process named `postgres`, with the ticks of the ones that ended already (the postmaster's
   * reaped children), so a backend that exits mid-run still counts. Includes other clients of the same server.
   */
  readonly postgres: number;
}

/** Average cores in use over the window between two snapshots (1.0 = one core fully busy). */
export interface CpuUse {
  readonly machineBusyCores: number;
  readonly processCores: number;
  readonly postgresCores: number;
}

// USER_HZ: /proc reports times in these ticks; 100 on every mainstream Linux build (`getconf CLK_TCK`).
const TICKS_PER_SECOND = 100;

function readStat(pid: string): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields after it are space-separated.
    const close = text.lastIndexOf(')');
    return [text.slice(text.indexOf('(') + 1, close), ...text.slice(close + 2).split(' ')];
  } catch {
    return undefined; // gone meanwhile, or not Linux
  }
}

// After the name: state is [1]; utime, stime, cutime, cstime are fields 14-17 of stat(5), so [12] to [15].
const ticks = (fields: string[], withChildren: boolean): number =>
  [12, 13, ...(withChildren ? [14, 15] : [])].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);

export function cpuSnapshot(pids: readonly number[]): CpuSnapshot | undefined {
  let machine: number[];
  try {
    machine = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return undefined;
  }
  // user nice system idle iowait irq softirq steal: idle and iowait are the unused time.
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = machine;
  let postgres = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const fields = readStat(pid);
    if (fields?.[0] === 'postgres') postgres += ticks(fields, true);
  }
  return {
    atMs: performance.now(),
    busy: user + nice + system + irq + softirq + steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
    pids: pids.reduce((sum, pid) => sum + ticks(readStat(String(pid)) ?? [], false), 0),
    postgres,
  };
}

/**
 * `laterPids`: the processes' ticks at a snapshot after `after`, counted as if in the window: work the window's
 * load left behind (the `append` floor's backlog), so that CPU per request includes it.
 */
export function cpuUse(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
  laterPids?: number,
): CpuUse | undefined {
  if (before === undefined || after === undefined || after.total <= before.total) return undefined;
  const seconds = (after.atMs - before.atMs) / 1000;
  const cores = (delta: number) => delta / TICKS_PER_SECOND / seconds;
  return {
    machineBusyCores: ((after.busy - before.busy) / (after.total - before.total)) * availableParallelism(),
    processCores: cores((laterPids ?? after.pids) - before.pids),
    postgresCores: cores(after.postgres - before.postgres),
  };
}

/** `machine 1.9 of 2 cores busy: server 1.1, postgres 0.4, load generator 0.3` */
export function formatCpuUse(use: CpuUse | undefined, processLabel: string, extra = ''): string {
  if (use === undefined) return '';
  const parts = [`${processLabel} ${use.processCores.toFixed(2)}`];
  if (use.postgresCores >= 0.005) parts.push(`postgres ${use.postgresCores.toFixed(2)}`);
  if (extra !== '') parts.push(extra);
  return `machine ${use.machineBusyCores.toFixed(2)} of ${availableParallelism()} cores busy: ${parts.join(', ')}`;
}
