import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { manualClock } from '../../src/clock.js';
import type { RetentionConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/log/create-logger.js';
import { RETENTION_METRICS } from '../../src/retention/retention-metrics.js';
import { startPruner } from '../../src/retention/start-pruner.js';
import type { Store } from '../../src/store/store.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { DAY_MS, T0, makeIngestItem } from '../store/make-ingest-item.js';
import { finishDeliveries } from '../store/retention-store-contract.js';
import { tempSqliteJournal } from '../store/temp-sqlite-journal.js';

const RETENTION: RetentionConfig = {
  enabled: true,
  eventsMs: 30 * DAY_MS,
  deadMs: 90 * DAY_MS,
  intervalMs: 1000,
  batchSize: 3,
};

describe('background pruner', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  /** A real SQLite journal with 10 old delivered events, 2 old pending ones and 1 young delivered one. */
  async function seeded(): Promise<Store> {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    const store = await journal.open();
    cleanups.push(() => store.close());
    await store.migrate();
    await store.ingest(
      Array.from({ length: 10 }, (_, i) => makeIngestItem({ receivedAt: T0 + i, targets: ['slack'] })),
    );
    await store.ingest([1, 2].map((i) => makeIngestItem({ receivedAt: T0 + 20 + i, targets: ['mail'] })));
    await finishDeliveries(store, 'slack', 'delivered', T0 + DAY_MS);
    await store.ingest([makeIngestItem({ receivedAt: T0 + 99 * DAY_MS, targets: ['slack'] })]);
    await finishDeliveries(store, 'slack', 'delivered', T0 + 99 * DAY_MS + 1);
    return store;
  }
  function start(store: Store, retention: RetentionConfig, dedupeWindowMs = 7 * DAY_MS, pauseMs = 1) {
    const clock = manualClock(T0 + 100 * DAY_MS);
    const metrics = createMetrics(RETENTION_METRICS);
    const logs = captureLogs();
    const log = createLogger({ level: 'info', secrets: [], stream: logs.stream });
    const pruner = startPruner({
      store,
      log,
      clock,
      metrics,
      retention,
      dedupeWindowMs,
      firstPassAfterMs: 0,
      pauseMs,
    });
    cleanups.push(() => pruner.stop());
    return { metrics, logs, pruner };
  }
  async function until(check: () => Promise<boolean>) {
    for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it('prunes in batches shortly after start, keeps pending and young events, and reports it', async () => {
    const store = await seeded();
    const { metrics, logs } = start(store, RETENTION);
    await until(async () => (await metrics.value('switchyard_last_prune_timestamp_seconds')) > 0);

    expect(await store.counts()).toEqual({ events: 3, deliveries: 3 });
    expect(await store.findDeliveries({ state: 'pending' })).toHaveLength(2);
    expect(await metrics.value('switchyard_last_prune_timestamp_seconds')).toBe((T0 + 100 * DAY_MS) / 1000);
    expect(await metrics.value('switchyard_journal_last_prune_rows', { table: 'events' })).toBe(10);
    expect(await metrics.value('switchyard_journal_pruned_rows_total', { table: 'attempts' })).toBe(10);
    const line = logs.logs().find((entry) => entry.message === 'journal pruned');
    expect(line).toMatchObject({ events: 10, deliveries: 10, attempts: 10, dead_letters: 0, batches: 5 });
    expect(await metrics.render()).toMatch(/^switchyard_journal_size_bytes [1-9]\d+$/m);
  });

  it('keeps every event inside the dedupe window when it is longer than the retention', async () => {
    const store = await seeded();
    const { metrics } = start(store, RETENTION, 120 * DAY_MS);
    await until(async () => (await metrics.value('switchyard_last_prune_timestamp_seconds')) > 0);
    expect(await metrics.value('switchyard_last_prune_timestamp_seconds')).toBeGreaterThan(0);
    expect(await store.counts()).toEqual({ events: 13, deliveries: 13 });
  });

  it('removes nothing when retention is disabled, and still reports the journal size', async () => {
    const store = await seeded();
    const { metrics } = start(store, { ...RETENTION, enabled: false });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await store.counts()).toEqual({ events: 13, deliveries: 13 });
    expect(await metrics.render()).toMatch(/^switchyard_journal_size_bytes [1-9]\d+$/m);
  });

  it('stops between batches when stopped mid-pass', async () => {
    const store = await seeded();
    const { metrics, pruner } = start(store, { ...RETENTION, batchSize: 1 }, 0, 50);
    await until(async () => (await store.counts()).events < 13);
    await pruner.stop();
    const left = (await store.counts()).events;
    expect(left).toBeGreaterThan(3);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await store.counts()).events).toBe(left);
    expect(await metrics.value('switchyard_last_prune_timestamp_seconds')).toBe(0);
  });
});
