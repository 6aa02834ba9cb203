import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { createEngineWorker } from '../../src/delivery/create-engine-worker.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver } from '../helpers/start-http-receiver.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { waitFor } from './engine/engine-harness.js';
import { watchWorkerThreads } from '../helpers/watch-worker-threads.js';

const tempDir = useTempDirs();
const WORKER = 'delivery: { worker_thread: true }';
const TOKEN = 'metrics-token-0123456789abcdef';
// What /healthz answers once the worker died: a fixed reason, nothing of the deployment (no credential needed).
const DEAD_WORKER = {
  status: 'unhealthy',
  reason: 'the delivery worker thread died; only a restart resumes deliveries',
};
const event = JSON.stringify({
  event: 'incident.created',
  timestamp: '2026-11-22T10:00:00Z',
  data: { incident_id: 'inc_1', severity: 'high', title: 'Ransomware on host-7' },
});

// Issue 11's `delivery.worker_thread`: a worker that fails to start, or dies later, must not go unnoticed.
describe('the delivery worker thread’s lifecycle', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a worker that fails to start fails the daemon’s start, ends its thread and releases the journal', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'journal.db');
    const store = createSqliteStore({ path: journal });
    await store.migrate();
    await store.close();
    // Another connection (a backup, an sqlite3 shell) holds the journal's write lock longer than busy_timeout:
    // the main thread only reads at start, the worker's first write (releasing a dead run's claims) fails.
    const holder = new Database(journal);
    cleanups.push(() => holder.close());
    holder.exec('BEGIN IMMEDIATE');
    const threads = watchWorkerThreads();

    await expect(startTestDaemon(dir, { config: WORKER, busyTimeout: '50ms' })).rejects.toThrow(
      /^the delivery worker failed to start: .*locked/,
    );
    expect(threads).toHaveLength(1);
    // Ended by the time start rejected: nothing of the failed start is left running.
    expect(threads[0]?.exited()).toBe(true);

    // The lock gone, the same journal starts at once: the failed start released it (and its daemon lock).
    holder.exec('ROLLBACK');
    const daemon = await startTestDaemon(dir, { config: WORKER, busyTimeout: '50ms' });
    await daemon.running.close();
    expect(threads).toHaveLength(2);
    await threads[1]?.exit;
  });

  it('a worker that never reports started fails the start at the deadline, with a code, its thread ended', async () => {
    const logs = captureLogs();
    const log = createLogger({ level: 'info', stream: logs.stream, secrets: [] });
    const threads = watchWorkerThreads();
    const worker = createEngineWorker(
      { configFile: undefined, env: {}, cwd: tempDir(), pollIntervalMs: undefined },
      {
        log,
        logStream: logs.stream,
        metrics: createMetrics(),
        startDeadlineMs: 500,
        entry: new URL('./support/never-started-engine-worker.ts', import.meta.url),
      },
    );
    const started = Date.now();
    const failure: unknown = await worker.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SwitchyardError);
    expect(failure).toMatchObject({
      code: 'delivery_worker_start_timeout',
      message: 'the delivery worker did not start within 0.5 s; its thread was ended',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    // Ended by the time start rejected, as after a start that failed: nothing of it is left running.
    expect(threads).toHaveLength(1);
    expect(threads[0]?.exited()).toBe(true);
    // Not a failure after start (readiness is never asked: the daemon did not start), and nothing to stop.
    expect(worker.failure()).toBeNull();
    await worker.stop(1_000);
  });

  it('a worker that dies after start makes /readyz and /healthz answer 503, and the daemon still stops at once', async () => {
    const receiver = await startHttpReceiver();
    cleanups.push(() => receiver.close());
    const threads = watchWorkerThreads();
    const daemon = await startTestDaemon(tempDir(), {
      config: WORKER,
      rules: `targets:\n  tickets: { type: http, url: "${receiver.url}/hook" }\nroutes:\n  - { name: all, to: [tickets] }\n`,
      env: { SWITCHYARD_ADMIN_TOKEN: TOKEN },
    });
    let open = true;
    cleanups.push(async () => open && (await daemon.running.close()));
    const readyz = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${daemon.url}/readyz`, { headers });
      return { status: response.status, body: (await response.json()) as { checks: Record<string, unknown> } };
    };
    const metric = async (name: string) => {
      const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return (await response.text()).split('\n').filter((line) => line.startsWith(name));
    };
    expect((await postWebhook(daemon.url, event, { secret: SOURCE_SECRET })).status).toBe(200);
    await receiver.waitForRequests(1);
    expect(await readyz()).toMatchObject({ status: 200, body: { checks: { delivery_worker: { ok: true } } } });
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
    expect(await metric('switchyard_delivery_engine_up')).toEqual(['switchyard_delivery_engine_up 1']);
    // The worker's next report (every 500 ms) shows the target's lane.
    await waitFor(
      () => metric('switchyard_target_in_flight{'),
      (lines) => lines.length === 1,
    );

    // Ended from outside, as a crash would end it: no 'stopped' message, nobody asked it to stop.
    expect(threads).toHaveLength(1);
    await threads[0]?.worker.terminate();

    const anonymous = await readyz();
    expect(anonymous.status).toBe(503);
    expect(anonymous.body.checks).toMatchObject({ journal: { ok: true }, delivery_worker: { ok: false } });
    const detailed = await readyz({ authorization: `Bearer ${TOKEN}` });
    expect(detailed.body.checks['delivery_worker']).toEqual({
      ok: false,
      error: 'the delivery worker thread exited with code 1; deliveries wait for a restart',
    });
    // Liveness fails too: nothing but a restart brings the worker back, so the orchestrator should restart it.
    const healthz = await fetch(`${daemon.url}/healthz`);
    expect({ status: healthz.status, body: await healthz.json() }).toEqual({ status: 503, body: DEAD_WORKER });
    // The metrics stop showing the dead thread's last report as the engine's state.
    expect(await metric('switchyard_delivery_engine_up')).toEqual(['switchyard_delivery_engine_up 0']);
    expect(await metric('switchyard_target_in_flight{')).toEqual([]);
    expect(daemon.logs()).toContainEqual(
      expect.objectContaining({ message: 'the delivery worker exited; deliveries wait for a restart', code: 1 }),
    );

    // Ingest still journals (its wake goes nowhere, harmlessly), and the event waits for a restart.
    expect((await postWebhook(daemon.url, event.replace('inc_1', 'inc_2'), { secret: SOURCE_SECRET })).status).toBe(
      200,
    );
    const started = Date.now();
    open = false;
    await daemon.running.close();
    expect(Date.now() - started).toBeLessThan(2_000); // nothing to wait for: the thread is gone
    expect((await daemon.deliveries()).map((row) => row.state).sort()).toEqual(['delivered', 'pending']);
    expect(receiver.requests).toHaveLength(1);
  });

  it('answers /healthz 503 on the admin listener too, once the worker died', async () => {
    const threads = watchWorkerThreads();
    const daemon = await startTestDaemon(tempDir(), {
      config: `${WORKER}\nadmin: { listen: { host: 127.0.0.1, port: 0 }, health_and_metrics: admin }`,
    });
    cleanups.push(() => daemon.running.close());
    const healthz = `http://127.0.0.1:${daemon.running.adminPort}/healthz`;
    expect(await (await fetch(healthz)).json()).toEqual({ status: 'ok' });

    expect(threads).toHaveLength(1);
    await threads[0]?.worker.terminate();
    const answer = await fetch(healthz);
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 503, body: DEAD_WORKER });
  });
});
