import { readFileSync } from 'node:fs';

/**
 * CPU of the PostgreSQL backends serving one set of daemons, told apart by their `application_name` (the
 * benchmark puts a name of its own in each daemon's URL). Counting every `postgres` process on the machine
 * also counts other sessions' queries on a shared machine; these are the daemons' own connections only
 * (not the WAL writer, checkpointer or autovacuum). Backends come and go (the pool closes idle ones), so
 * the pids are sampled while the round runs: a backend that ended between two samples loses at most one
 * interval's ticks.
 */
export interface BackendCpu {
  /** Stops sampling; the backends' CPU seconds since `start`. */
  stop(): Promise<number>;
}

const ticksOf = (pid: number): number | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined; // ended, or not on this machine
  }
};

export async function startBackendCpu(pids: () => Promise<readonly number[]>, intervalMs = 250): Promise<BackendCpu> {
  const first = new Map<number, number>(); // ticks when first seen (0 for a backend that started meanwhile)
  const last = new Map<number, number>();
  const sample = async (initial: boolean) => {
    for (const pid of await pids()) {
      const ticks = ticksOf(pid);
      if (ticks === undefined) continue;
      if (!first.has(pid)) first.set(pid, initial ? ticks : 0);
      last.set(pid, ticks);
    }
  };
  await sample(true);
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => sample(false)).catch(() => undefined);
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await sample(false);
      let ticks = 0;
      for (const [pid, at] of last) ticks += at - (first.get(pid) ?? 0);
      return ticks / 100; // USER_HZ
    },
  };
}
