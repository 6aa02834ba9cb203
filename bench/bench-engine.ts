/**
 * The delivery engine as src/main.ts wires it (the journal, rules file, JSON logger, metrics, the real
 * targets), loaded from the compiled `dist/` like the daemon in the ingest benchmark, with stopwatches on the
 * journal's hot calls and on the synchronous part of `target.send`. Used by delivery-engine-process.ts.
 */
import { openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type * as MetricsModule from '../src/admin/metrics.js';
import type * as SwitchyardMetricsModule from '../src/admin/switchyard-metrics.js';
import type * as EngineModule from '../src/delivery/delivery-engine.js';
import type * as TargetsModule from '../src/delivery/targets/create-target.js';
import type * as LoggerModule from '../src/log/create-logger.js';
import type { LogLevel } from '../src/log/logger.js';
import type * as RulesModule from '../src/rules/load-rules-or-throw.js';
import type * as PostgresStoreModule from '../src/store/postgres/create-postgres-store.js';
import type * as SqliteStoreModule from '../src/store/sqlite/create-sqlite-store.js';
import type { AttemptRecord, Store } from '../src/store/store.js';
import type { EngineRunOptions } from './delivery-results.js';
import { timedStore, type StoreTimes } from './timed-store.js';

export interface BenchEngine {
  readonly engine: EngineModule.DeliveryEngine;
  readonly store: Store;
  readonly times: StoreTimes;
  /** Deliveries this engine recorded as delivered, and attempts that did not deliver. */
  readonly counts: { finished: number; failed: number; sendSyncMs: number };
  /** Resolves once `expected` deliveries are recorded as delivered by this engine. */
  readonly done: Promise<void>;
}

export async function createBenchEngine(options: EngineRunOptions): Promise<BenchEngine> {
  const load = async <T>(file: string): Promise<T> =>
    (await import(pathToFileURL(path.join(options.root, 'dist', file)).href)) as T;
  const { createDeliveryEngine } = await load<typeof EngineModule>('delivery/delivery-engine.js');
  const { createTarget } = await load<typeof TargetsModule>('delivery/targets/create-target.js');
  const { createLogger } = await load<typeof LoggerModule>('log/create-logger.js');
  const { createMetrics } = await load<typeof MetricsModule>('admin/metrics.js');
  const { SWITCHYARD_METRICS } = await load<typeof SwitchyardMetricsModule>('admin/switchyard-metrics.js');
  const { loadRulesOrThrow } = await load<typeof RulesModule>('rules/load-rules-or-throw.js');
  const { postgres } = options;
  let journal: Store;
  if (postgres === undefined) {
    const { createSqliteStore } = await load<typeof SqliteStoreModule>('store/sqlite/create-sqlite-store.js');
    journal = createSqliteStore({ path: options.journal });
  } else {
    const { createPostgresStore } = await load<typeof PostgresStoreModule>('store/postgres/create-postgres-store.js');
    // As src/store/create-store.ts builds it from `store.postgres` in the config.
    journal = createPostgresStore({ url: postgres.url, schema: postgres.schema, pool: { max: postgres.poolSize } });
  }

  // The daemon logs one JSON line per attempt to stdout, which the ingest benchmark points at /dev/null (a
  // synchronous write); stdout is taken here by the result line, so the log goes to /dev/null the same way.
  const devNull = openSync('/dev/null', 'w');
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writeSync(devNull, chunk);
      done();
    },
  });

  const counts = { finished: 0, failed: 0, sendSyncMs: 0 };
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const { store, times } = timedStore(
    journal,
    (records: readonly AttemptRecord[]) => {
      for (const record of records) {
        if (record.next.state === 'delivered') counts.finished += 1;
        else counts.failed += 1;
      }
      if (options.mode === 'throughput' && counts.finished >= options.expected) allDone();
    },
    postgres !== undefined,
  );
  await store.migrate();
  const { rules } = loadRulesOrThrow(options.rulesFile, {});
  const engine = createDeliveryEngine({
    store,
    log: createLogger({ level: options.logLevel as LogLevel, stream: logStream }),
    clock: { now: () => Date.now() },
    metrics: createMetrics(SWITCHYARD_METRICS),
    rules: () => rules,
    secrets: () => [],
    createTarget: async (spec, deps) => {
      const target = await createTarget(spec, deps);
      return {
        send(job, signal) {
          const started = performance.now();
          const outcome = target.send(job, signal);
          counts.sendSyncMs += performance.now() - started;
          return outcome;
        },
        close: () => target.close(),
      };
    },
    // As src/main.ts: on a shared journal, claims held by live instances are left alone at start.
    releaseClaimsAtStart: postgres === undefined,
  });
  return { engine, store, times, counts, done };
}
