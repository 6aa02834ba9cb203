import { useCrashCleanup } from './use-crash-cleanup.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import type { SpawnedCli } from '../helpers/spawn-cli.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { LivePool, runBurst } from './burst.js';
import { serve, tally, waitUntil, writeDaemonConfig } from './crash-checks.js';
import { startTimedReceiver } from './timed-receiver.js';

const tempDir = useTempDirs();
const EVENTS = 120;
const KILL_AFTER_ACKS = 60;
// Short retries and a short circuit cooldown so that the outage is retried many times in a few seconds; enough
// attempts and age that none of it is ever dead-lettered.
const TARGET = `concurrency: 4, timeout: 5s,
    retry: { initial_delay: 100ms, max_delay: 500ms, max_attempts: 1000, max_age: 1h },
    circuit_breaker: { failures: 5, cooldown: 1s }`;

describe('target outage while the daemon is killed with SIGKILL and restarted (SQLite journal)', () => {
  const { processes, cleanups } = useCrashCleanup();

  it('delivers every acknowledged event exactly once after the target recovers, none dead-lettered', async () => {
    const receiver = await startTimedReceiver({ delayMs: 10, status: 503 });
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    const env = { MONITOR_SECRET: SOURCE_SECRET };
    const config = (name: string) =>
      writeDaemonConfig(dir, {
        name,
        targetUrl: `${receiver.url}/${name}`,
        target: TARGET,
        store: '{ sqlite: { path: ./journal.db } }',
      });
    const deliveries = async (): Promise<StoredDelivery[]> => {
      const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
      try {
        return await store.findDeliveries({ limit: 10_000 });
      } finally {
        await store.close();
      }
    };
    const first = await serve(config('first'), env, processes);
    const pool = new LivePool();
    pool.add(first.url);

    let restart: Promise<{ url: string; cli: SpawnedCli }> | undefined;
    const burst = await runBurst({
      pool,
      count: EVENTS,
      parallel: 8,
      prefix: 'out',
      onAck: (acked) => {
        if (acked !== KILL_AFTER_ACKS) return;
        pool.remove(first.url);
        // Killed only once the target has failed a few attempts, so the kill lands in the middle of retrying.
        restart = receiver
          .waitFor((requests) => requests.length >= 10)
          .then(async () => {
            first.cli.child.kill('SIGKILL');
            await first.cli.exited;
            const second = await serve(config('second'), env, processes);
            pool.add(second.url);
            return second;
          });
      },
    });
    expect(await first.cli.exited).toBe('SIGKILL');
    const second = await restart;
    if (second === undefined) throw new Error(`the kill never happened: ${burst.acked.length} acknowledged`);
    expect(burst.acked.length).toBeGreaterThan(KILL_AFTER_ACKS);
    expect(burst.answers.filter((a) => a.status !== 200 && a.status !== 'network-error')).toEqual([]);

    // The restarted daemon keeps retrying the down target (several failed attempts of its own), then it recovers.
    await receiver.waitFor((requests) => requests.filter((r) => r.path === '/second').length >= 5, 30_000);
    const rows = await deliveries();
    expect(rows.filter((d) => d.state !== 'pending')).toEqual([]);
    expect(receiver.requests.filter((r) => r.status !== 503 && r.status !== undefined)).toEqual([]);
    receiver.answer(200);

    const final = await waitUntil(
      deliveries,
      (list) => list.length >= burst.acked.length && list.every((d) => d.state !== 'pending'),
      60_000,
      (list) => `${list.filter((d) => d.state === 'pending').length} of ${list.length} pending`,
      500,
    );
    expect(final.filter((d) => d.state === 'dead')).toEqual([]);
    // The failed attempts survived the kill: the journal counts every answered request, except at most the
    // few the first run had in flight when it died (concurrency 4).
    const answered = receiver.requests.filter((r) => r.status !== undefined).length;
    const recorded = final.reduce((sum, d) => sum + d.attempts, 0);
    expect(recorded).toBeLessThanOrEqual(answered);
    expect(recorded).toBeGreaterThanOrEqual(answered - 4);
    expect(recorded).toBeGreaterThan(final.length);

    const { missing, duplicated, splitKeys } = tally(receiver.requests, burst.acked, (r) => r.status === 200);
    expect(missing).toEqual([]);
    expect(splitKeys).toEqual([]);
    expect([...duplicated.keys()]).toEqual([]);
    // Nothing but the acknowledged events (and those whose 200 was lost in the kill) reached the target.
    const delivered = receiver.requests.filter((r) => r.status === 200);
    expect(delivered.length).toBe(final.length);

    second.cli.child.kill('SIGTERM');
    expect(await second.cli.exited).toBe(0);
  }, 120_000);
});
