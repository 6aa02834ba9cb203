/**
 * The delivery benchmark (issue 3, Performance), run by bench/run.ts after the ingest benchmark. Reports,
 * never asserts. The HTTP receiver runs in its own process for both parts: the throughput rounds (engine
 * against a bare keep-alive client), then the engine's RSS with a large backlog against none. Details and
 * options: bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchDatabase } from './bench-database.js';
import { startChildServer, type ChildServer } from './child-server.js';
import { runMemory } from './delivery-memory.js';
import { runThroughput } from './delivery-throughput.js';
import { freePort } from './free-port.js';

export interface DeliveryBenchOptions {
  /** The checkout; the engine runs from its compiled `dist/`. */
  readonly root: string;
  readonly rounds: number;
  readonly deliveries: number;
  readonly concurrency: number;
  readonly perMs: number;
  readonly memoryRounds: number;
  readonly memoryPending: number;
  readonly memorySettleSeconds: number;
  readonly logLevel: string;
  /** Run the engine of the throughput rounds with `node --cpu-prof`, profiles written here. */
  readonly cpuProfDir: string | undefined;
  /** The PostgreSQL throughput rounds' database (the memory part is SQLite's alone); none without it. */
  readonly postgres: BenchDatabase | undefined;
  readonly postgresPoolSize: number;
  readonly postgresInstances: readonly number[];
}

/** Returns the median deliveries per second of each engine sender (`sqlite-1`, `postgres-3`, ...), if measured. */
export async function runDeliveryBench(options: DeliveryBenchOptions): Promise<Map<string, number>> {
  const { root } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-delivery-bench-'));
  let receiver: ChildServer | undefined;
  let rates = new Map<string, number>();
  try {
    const port = await freePort();
    receiver = await startChildServer({
      name: 'receiver',
      args: ['--import', 'tsx', path.join(root, 'bench/delivery-receiver.ts'), String(port)],
      port,
      env: process.env,
      cwd: root,
    });
    const shared = { root, dir, origin: receiver.origin, concurrency: options.concurrency, logLevel: options.logLevel };
    if (options.rounds > 0) {
      rates = await runThroughput({
        ...shared,
        rounds: options.rounds,
        deliveries: options.deliveries,
        perMs: options.perMs,
        cpuProfDir: options.cpuProfDir,
        postgres: options.postgres,
        postgresPoolSize: options.postgresPoolSize,
        postgresInstances: options.postgresInstances,
      });
    }
    if (options.memoryRounds > 0) {
      await runMemory({
        ...shared,
        rounds: options.memoryRounds,
        pending: options.memoryPending,
        settleSeconds: options.memorySettleSeconds,
      });
    }
    return rates;
  } finally {
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
    if (options.cpuProfDir) console.log(`engine CPU profiles written to ${options.cpuProfDir}`);
  }
}
