import { createPostgresStore } from '../src/store/postgres/create-postgres-store.js';
import type { BenchDatabase } from './bench-database.js';
import type { ThroughputResult } from './delivery-results.js';
import { BENCH_TARGET } from './delivery-rules.js';
import { runEngineFleet } from './engine-fleet.js';
import { fillJournal } from './fill-journal.js';

export interface PostgresDeliveryOptions {
  readonly root: string;
  readonly db: BenchDatabase;
  readonly rulesFile: string;
  readonly deliveries: number;
  readonly perMs: number;
  readonly logLevel: string;
  /** Each engine's `pool_size`, as the daemon's config would give it. */
  readonly poolSize: number;
  readonly timeoutMs: number;
}

export interface PostgresDelivery {
  /** `instances` engine processes deliver a fresh copy of the template journal; their figures summed. */
  run(instances: number, round: number): Promise<ThroughputResult>;
}

/**
 * The PostgreSQL side of the delivery rounds. The template journal is filled once through `store.ingest`,
 * like the SQLite one; each round copies it into a schema of its own (server-side) and drops that after.
 */
export async function preparePostgresDelivery(options: PostgresDeliveryOptions): Promise<PostgresDelivery> {
  const { db } = options;
  const journal = (schema: string, poolSize: number) =>
    createPostgresStore({ url: db.url, schema, pool: { max: poolSize } });
  const template = await db.createSchema('delivery_template');
  await fillJournal(journal(template, 2), BENCH_TARGET, options.deliveries, options.perMs);
  return {
    async run(instances, round) {
      const schema = await db.createSchema(`delivery_r${round}_x${instances}`);
      // One connection, to migrate the round's schema, then to watch it drain (one cheap indexed query a poll).
      const watcher = journal(schema, 1);
      try {
        await watcher.migrate();
        await db.copyJournal(template, schema);
        const fleet = await runEngineFleet({
          engine: {
            root: options.root,
            journal: '',
            postgres: { url: db.url, schema, poolSize: options.poolSize },
            rulesFile: options.rulesFile,
            logLevel: options.logLevel,
            mode: 'fleet',
            expected: options.deliveries,
            settleMs: 0,
            timeoutMs: options.timeoutMs,
          },
          instances,
          // Claimed deliveries stay pending (their due time moved to the lease's end) until recorded.
          drained: async () => (await watcher.nextDueAt(BENCH_TARGET)) === undefined,
          timeoutMs: options.timeoutMs,
        });
        return combine(fleet.results, fleet.seconds, fleet.cpu);
      } finally {
        await watcher.close();
        await db.dropSchema(schema);
      }
    },
  };
}

/** One result for the fleet: counts, CPU and journal timings summed, wall time from the coordinator. */
function combine(
  results: readonly ThroughputResult[],
  seconds: number,
  cpu: { machineBusyCores: number; postgresCores: number } | undefined,
): ThroughputResult {
  const sum = (pick: (r: ThroughputResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  return {
    delivered: sum((r) => r.delivered),
    failed: sum((r) => r.failed),
    seconds,
    cpuUs: sum((r) => r.cpuUs),
    maxRssBytes: Math.max(...results.map((r) => r.maxRssBytes)),
    timings: {
      claimMs: sum((r) => r.timings.claimMs),
      claimCalls: sum((r) => r.timings.claimCalls),
      recordMs: sum((r) => r.timings.recordMs),
      recordCalls: sum((r) => r.timings.recordCalls),
      nextDueMs: sum((r) => r.timings.nextDueMs),
      nextDueCalls: sum((r) => r.timings.nextDueCalls),
      reportMs: sum((r) => r.timings.reportMs),
      reportCalls: sum((r) => r.timings.reportCalls),
      sendSyncMs: sum((r) => r.timings.sendSyncMs),
    },
    instances: results.length,
    ...(cpu === undefined
      ? {}
      : { postgresCpuUs: cpu.postgresCores * seconds * 1e6, machineBusyCores: cpu.machineBusyCores }),
  };
}
