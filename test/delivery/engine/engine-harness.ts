import { createMetrics } from '../../../src/admin/metrics.js';
import { SWITCHYARD_METRICS } from '../../../src/admin/switchyard-metrics.js';
import { manualClock } from '../../../src/clock.js';
import {
  createDeliveryEngine,
  type DeliveryEngine,
  type DeliveryEngineOptions,
} from '../../../src/delivery/delivery-engine.js';
import type { Outcome } from '../../../src/delivery/outcome.js';
import type { Logger } from '../../../src/log/logger.js';
import type { DeliveryJob, Target } from '../../../src/delivery/target.js';
import type { CompiledRules, DeliveryPolicy, HttpTargetSpec } from '../../../src/rules/rules.js';
import type { Store } from '../../../src/store/store.js';
import { T0, makeIngestItem } from '../../store/make-ingest-item.js';
import { tempPostgresJournal } from '../../store/temp-postgres-journal.js';
import { tempSqliteJournal } from '../../store/temp-sqlite-journal.js';
import { TEST_POLICY, makeHttpSpec, quietLog } from '../targets/make-target-spec.js';

export function httpSpec(name: string, policy: Partial<DeliveryPolicy> = {}): HttpTargetSpec {
  return makeHttpSpec({ name, policy: { ...TEST_POLICY, ...policy } });
}

/** A target whose answers a test scripts; it records every job and can hold answers until released. */
export interface ScriptedTarget extends Target {
  readonly jobs: DeliveryJob[];
  readonly signals: AbortSignal[];
  answer: (job: DeliveryJob, signal: AbortSignal) => Outcome | Promise<Outcome>;
  closed: number;
}

export function scriptedTarget(answer: ScriptedTarget['answer'] = () => ({ kind: 'delivered', status: 200 })) {
  const target: ScriptedTarget = {
    jobs: [],
    signals: [],
    answer,
    closed: 0,
    async send(job, signal) {
      target.jobs.push(job);
      target.signals.push(signal);
      return target.answer(job, signal);
    },
    async close() {
      target.closed += 1;
    },
  };
  return target;
}

export type Backend = 'sqlite' | 'postgres';

/**
 * A real journal (SQLite by default, or a fresh schema in the PostgreSQL test database), a manual clock, and an
 * engine whose targets are scripted by name.
 */
export async function engineHarness(
  specs: HttpTargetSpec[],
  targets: Record<string, ScriptedTarget>,
  options: { random?: () => number; secrets?: string[]; store?: Store; backend?: Backend; log?: Logger } = {},
) {
  const journal = options.backend === 'postgres' ? await tempPostgresJournal() : await tempSqliteJournal();
  const store = options.store ?? (await journal.open());
  await store.migrate();
  const clock = manualClock(T0);
  const metrics = createMetrics(SWITCHYARD_METRICS);
  let rules = { targets: new Map(specs.map((spec) => [spec.name, spec])), secrets: [] } as unknown as CompiledRules;
  const engines: DeliveryEngine[] = [];
  const newEngine = (extra: Partial<DeliveryEngineOptions> = {}) => {
    const engine = createDeliveryEngine({
      store,
      log: options.log ?? quietLog,
      clock,
      metrics,
      rules: () => rules,
      secrets: () => options.secrets ?? [],
      createTarget: (spec) => {
        const target = targets[spec.name];
        if (target === undefined) throw new Error(`no scripted target ${spec.name}`);
        return target;
      },
      random: options.random ?? (() => 0.5),
      pollIntervalMs: 50,
      // One engine per journal here, even on PostgreSQL: claims found at start were left by a "crash".
      releaseClaimsAtStart: true,
      ...extra,
    });
    engines.push(engine);
    return engine;
  };
  return {
    store,
    clock,
    metrics,
    newEngine,
    setRules(next: HttpTargetSpec[]) {
      rules = { targets: new Map(next.map((spec) => [spec.name, spec])), secrets: [] } as unknown as CompiledRules;
    },
    async ingest(count: number, targetNames: string[]) {
      const items = Array.from({ length: count }, (_, i) =>
        makeIngestItem({ receivedAt: clock.now() + i - count, targets: targetNames }),
      );
      await store.ingest(items);
      return items.map((item) => item.event.id);
    },
    async dispose() {
      for (const engine of engines) await engine.stop(0);
      await store.close();
      await journal.dispose();
    },
  };
}

/** Polls until `check` holds (engine work is asynchronous); fails with the last value after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T> | T, check: (value: T) => boolean, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  return value;
}
