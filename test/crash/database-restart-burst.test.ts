import { useCrashCleanup } from './use-crash-cleanup.js';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { incidentBody, LivePool, runBurst } from './burst.js';
import { loggedRetries, serve, tally, unexplainedResends, waitUntil, writeDaemonConfig } from './crash-checks.js';
import { privateClusterSkipReason, startPrivateCluster } from './private-postgres.js';
import { startTimedReceiver } from './timed-receiver.js';

const tempDir = useTempDirs();
const EVENTS = 300;
const STOP_AFTER_ACKS = 100;
const CONCURRENCY = 4;
/** How long the database stays down while the burst goes on. */
const DOWN_MS = 3_000;
// Attempts in flight when the database dies cannot be recorded; their claims stay until the lease (target
// timeout + 60 s, src/delivery/delivery-engine.ts `leaseMs`) runs out, so delivery may take 65 s to finish.
const DELIVERED_WITHIN_MS = 120_000;

// The shared server on 5432 is used by other tests in parallel, so this one stops and starts a private
// cluster of its own (initdb in a temporary directory, its own port), with `pg_ctl stop -m immediate`.
const suite = privateClusterSkipReason === undefined ? describe : describe.skip;
const name = 'PostgreSQL restarted (pg_ctl stop -m immediate, start) in the middle of a burst';

suite(privateClusterSkipReason === undefined ? name : `${name} — SKIPPED: ${privateClusterSkipReason}`, () => {
  const { processes, cleanups } = useCrashCleanup();

  it('answers 503 (never 200) while it is down, recovers by itself, delivers every acknowledged event', async () => {
    const cluster = await startPrivateCluster();
    cleanups.push(() => cluster.dispose());
    const receiver = await startTimedReceiver({ delayMs: 20 });
    cleanups.push(() => receiver.close());
    const config = writeDaemonConfig(tempDir(), {
      name: 'switchyard',
      targetUrl: `${receiver.url}/hook`,
      target: `concurrency: ${CONCURRENCY}, timeout: 5s`,
      store: '{ postgres: { url: "${DATABASE_URL}", schema: switchyard, pool_size: 4 } }',
    });
    const daemon = await serve(config, { MONITOR_SECRET: SOURCE_SECRET, DATABASE_URL: cluster.url }, processes);
    const readyz = async () => (await fetch(`${daemon.url}/readyz`)).status;
    await waitUntil(readyz, (status) => status === 200, 30_000);
    const pool = new LivePool();
    pool.add(daemon.url);

    // While the database is down: a probe of our own, and /readyz, and the window in which the burst's
    // answers must all be 503.
    let downFrom = Number.NaN;
    let downUntil = Number.NaN;
    let outage: Promise<{ probe: Awaited<ReturnType<typeof postWebhook>>; ready: number }> | undefined;
    const burst = await runBurst({
      pool,
      count: EVENTS,
      parallel: 16,
      prefix: 'db',
      // The monitoring service sends a webhook again after a 503 (here sooner than its Retry-After).
      retry503: { delayMs: 200, deadline: performance.now() + 90_000 },
      onAck: (acked) => {
        if (acked !== STOP_AFTER_ACKS) return;
        outage = (async () => {
          await cluster.stop();
          downFrom = performance.now();
          const probe = await postWebhook(daemon.url, incidentBody('probe'), { secret: SOURCE_SECRET });
          const ready = await readyz();
          await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
          downUntil = performance.now();
          await cluster.start();
          return { probe, ready };
        })();
      },
    });
    if (outage === undefined) throw new Error(`the database was never stopped: ${burst.acked.length} acknowledged`);
    const { probe, ready } = await outage;
    expect(probe).toMatchObject({ status: 503, body: { error: { code: 'journal_unavailable' } } });
    expect(ready).toBe(503);
    const whileDown = burst.answers.filter((a) => a.sentAt >= downFrom && a.answeredAt <= downUntil);
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.filter((a) => a.status !== 503 || a.code !== 'journal_unavailable')).toEqual([]);
    // Recovered by itself (the same process): every webhook was eventually accepted, none refused otherwise.
    expect(daemon.cli.child.exitCode).toBeNull();
    expect(await readyz()).toBe(200);
    expect(new Set(burst.acked).size).toBe(EVENTS);
    expect(burst.answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);

    const store = createPostgresStore({ url: cluster.url, schema: 'switchyard' });
    cleanups.push(() => store.close());
    const deliveries = await waitUntil(
      (): Promise<StoredDelivery[]> => store.findDeliveries({ limit: 10_000 }),
      (rows) => rows.length >= EVENTS && rows.every((d) => d.state === 'delivered'),
      DELIVERED_WITHIN_MS,
      (rows) => `${rows.filter((d) => d.state !== 'delivered').length} of ${rows.length} not delivered`,
      1_000,
    );
    expect(deliveries).toHaveLength(EVENTS);

    const { missing, duplicated, splitKeys } = tally(receiver.requests, burst.acked);
    expect(missing).toEqual([]);
    expect(splitKeys).toEqual([]);
    // Sent again beyond the logged retries: only attempts in flight when the database died (not recorded).
    const resent = unexplainedResends(duplicated, loggedRetries(processes));
    expect(resent.size).toBeLessThanOrEqual(CONCURRENCY);
    daemon.cli.child.kill('SIGTERM');
    expect(await daemon.cli.exited).toBe(0);
  }, 200_000);
});
