import { useCrashCleanup } from './use-crash-cleanup.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { SpawnedCli } from '../helpers/spawn-cli.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { LivePool, runBurst } from './burst.js';
import { loggedRetries, serve, tally, unexplainedResends, waitUntil, writeDaemonConfig } from './crash-checks.js';
import { startTimedReceiver, type TimedRequest } from './timed-receiver.js';

const tempDir = useTempDirs();
const EVENTS = 300;
const KILL_AFTER_ACKS = 100;
/** The target's concurrency. */
const CONCURRENCY = 4;
/**
 * Sent but not recorded when the daemon dies: `CONCURRENCY` in flight, plus as many delivered attempts whose
 * record had not committed yet (on SQLite an answered attempt frees its slot early; DeliveryLane.settling).
 */
const UNRECORDED_AT_KILL = 2 * CONCURRENCY;

const store = '{ sqlite: { path: ./journal.db } }';

describe('SQLite journal: the daemon killed with SIGKILL in the middle of a burst, then restarted', () => {
  const { processes, cleanups } = useCrashCleanup();

  it('delivers every event that got a 200; only deliveries sent and not yet recorded at the kill are sent twice', async () => {
    const receiver = await startTimedReceiver({ delayMs: 40 });
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    const env = { MONITOR_SECRET: SOURCE_SECRET };
    // Each run gets its own target path (same journal, same target name), so the receiver knows who sent what.
    const config = (name: string) =>
      writeDaemonConfig(dir, {
        name,
        targetUrl: `${receiver.url}/${name}`,
        target: `concurrency: ${CONCURRENCY}, timeout: 10s`,
        store,
      });
    const first = await serve(config('first'), env, processes);
    const pool = new LivePool();
    pool.add(first.url);

    let restart: Promise<{ url: string; cli: SpawnedCli }> | undefined;
    let killedDuring: Promise<TimedRequest> | undefined;
    const burst = await runBurst({
      pool,
      count: EVENTS,
      parallel: 16,
      prefix: 'inc',
      onAck: (acked) => {
        if (acked !== KILL_AFTER_ACKS) return;
        pool.remove(first.url);
        // Killed the moment it has a delivery in flight at the target.
        killedDuring = receiver.nextRequest((r) => r.path === '/first');
        void killedDuring.then(() => first.cli.child.kill('SIGKILL'));
        restart = first.cli.exited.then(async () => {
          const second = await serve(config('second'), env, processes);
          pool.add(second.url);
          return second;
        });
      },
    });
    expect(await first.cli.exited).toBe('SIGKILL');
    const second = await restart;
    if (second === undefined) throw new Error(`the kill never happened: ${burst.acked.length} acknowledged`);

    // The scenario happened as intended: the first run was delivering when it died, and left a backlog.
    const byFirst = receiver.requests.filter((r) => r.path === '/first');
    expect(byFirst.length).toBeGreaterThan(0);
    expect(byFirst.filter((r) => r.status === 200).length).toBeLessThan(KILL_AFTER_ACKS);
    // The burst went on against the restarted daemon; requests cut by the kill may have failed, nothing else.
    expect(burst.acked.length).toBeGreaterThan(KILL_AFTER_ACKS);
    expect(burst.answers.filter((a) => a.status !== 200 && a.status !== 'network-error')).toEqual([]);

    const dbPath = path.join(dir, 'journal.db');
    const deliveries = await waitUntil(
      async () => {
        const store = createSqliteStore({ path: dbPath });
        try {
          return await store.findDeliveries({ limit: 10_000 });
        } finally {
          await store.close();
        }
      },
      (rows) => rows.length >= burst.acked.length && rows.every((d) => d.state === 'delivered'),
      60_000,
      (rows) => `${rows.length} deliveries, ${rows.filter((d) => d.state !== 'delivered').length} not delivered`,
      500,
    );
    expect(deliveries.filter((d) => d.state === 'dead')).toEqual([]);

    const { missing, duplicated, splitKeys } = tally(receiver.requests, burst.acked);
    expect(missing).toEqual([]);
    expect(splitKeys).toEqual([]);
    // Beyond the retries the daemon logged, a delivery reached the target twice only when the first run had
    // sent it and died before recording it (sent once by each run): at most twice the target's concurrency.
    const retries = loggedRetries(processes);
    const resent = unexplainedResends(duplicated, retries);
    expect(resent.size).toBeLessThanOrEqual(UNRECORDED_AT_KILL);
    for (const [incident, requests] of resent) {
      expect({ incident, paths: requests.map((r) => r.path) }).toEqual({ incident, paths: ['/first', '/second'] });
    }
    // The delivery in flight at the kill: its claim was released at the restart, and the second run sent it.
    const inFlight = await killedDuring;
    const sends = receiver.requests.filter((r) => r.key === inFlight?.key);
    expect(sends.map((r) => r.path)).toEqual(['/first', '/second']);
    expect(sends[1]?.status).toBe(200);
    expect(second.cli.stdout()).toContain('deliveries left in flight by a previous run are due again');

    second.cli.child.kill('SIGTERM');
    expect(await second.cli.exited).toBe(0);
  }, 120_000);
});
