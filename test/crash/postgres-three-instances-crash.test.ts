import { useCrashCleanup } from './use-crash-cleanup.js';
import { expect, it } from 'vitest';
import type { StoredDelivery } from '../../src/store/store.js';
import type { SpawnedCli } from '../helpers/spawn-cli.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';
import { LivePool, runBurst } from './burst.js';
import {
  loggedRetries,
  overlappingPairs,
  serve,
  tally,
  unexplainedResends,
  waitUntil,
  writeDaemonConfig,
} from './crash-checks.js';
import { startTimedReceiver, type TimedRequest } from './timed-receiver.js';

const tempDir = useTempDirs();
const EVENTS = 300;
const KILL_AFTER_ACKS = 100;
const RESTART_AFTER_ACKS = 150;
const HOLD_FROM = 240;
/** Per instance: at most this many deliveries are in flight in the instance that is killed. */
const CONCURRENCY = 4;
// A killed instance's claims are leased for the target's timeout + 60 s (src/delivery/delivery-engine.ts,
// `leaseMs`, not configurable): with `timeout: 5s`, its in-flight deliveries are due again after 65 s. (1s is
// too tight on two busy cores: attempts time out and are retried, which is legitimate but blurs the count.)
const LEASE_WAIT_MS = 120_000;

describePostgres('PostgreSQL journal: three instances, one killed with SIGKILL and one restarted mid-burst', () => {
  const { processes, cleanups } = useCrashCleanup();

  it('delivers every acknowledged event; no delivery is sent by two instances, nor at once', async () => {
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const receiver = await startTimedReceiver({ delayMs: 50 });
    cleanups.push(() => receiver.close());
    const dir = tempDir();
    const env = { MONITOR_SECRET: SOURCE_SECRET, DATABASE_URL: testDatabaseUrl };
    // One journal and target for all; each instance's rules point the target at its own path, naming the sender.
    const config = (name: string) =>
      writeDaemonConfig(dir, {
        name,
        targetUrl: `${receiver.url}/${name}`,
        target: `concurrency: ${CONCURRENCY}, timeout: 5s`,
        store: `{ postgres: { url: "\${DATABASE_URL}", schema: ${journal.schema}, pool_size: 4 } }`,
      });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => serve(config(name), env, processes)));
    if (a === undefined || b === undefined || c === undefined) throw new Error('three instances expected');
    const pool = new LivePool();
    for (const instance of [a, b, c]) pool.add(instance.url);

    let restart: Promise<{ url: string; cli: SpawnedCli }> | undefined;
    let killedDuring: Promise<TimedRequest> | undefined;
    let restarted: () => void = () => undefined;
    const backInPool = new Promise<void>((resolve) => (restarted = resolve));
    const burst = await runBurst({
      pool,
      count: EVENTS,
      parallel: 16,
      prefix: 'pg',
      // The last part of the burst waits for the restarted instance, so that it takes load too.
      before: (index) => (index >= HOLD_FROM ? backInPool : undefined),
      onAck: (acked) => {
        if (acked === KILL_AFTER_ACKS) {
          // Out of the pool, and killed the moment it has a delivery in flight at the target.
          pool.remove(a.url);
          killedDuring = receiver.nextRequest((r) => r.path === '/a');
          void killedDuring.then(() => a.cli.child.kill('SIGKILL'));
        }
        if (acked === RESTART_AFTER_ACKS) {
          // A rolling restart: out of the load balancer, SIGTERM (drains), started again.
          pool.remove(b.url);
          b.cli.child.kill('SIGTERM');
          restart = b.cli.exited.then(async () => {
            const again = await serve(config('b'), env, processes);
            pool.add(again.url);
            restarted();
            return again;
          });
        }
      },
    });
    const bAgain = await restart;
    expect(await a.cli.exited).toBe('SIGKILL');
    expect(await b.cli.exited).toBe(0);
    if (bAgain === undefined) throw new Error(`the restart never happened: ${burst.acked.length} acknowledged`);

    // The load was spread: every instance acknowledged webhooks, the restarted one too, and delivered some.
    expect(burst.answers.filter((x) => x.status !== 200 && x.status !== 'network-error')).toEqual([]);
    for (const { url } of [a, b, c, bAgain]) {
      expect(burst.answers.filter((x) => x.url === url && x.status === 200).length).toBeGreaterThan(0);
    }
    for (const path of ['/a', '/b', '/c']) expect(receiver.requests.some((r) => r.path === path)).toBe(true);

    const store = journal.open();
    cleanups.push(async () => (await store).close());
    const deliveries = await waitUntil(
      async (): Promise<StoredDelivery[]> => (await store).findDeliveries({ limit: 10_000 }),
      (rows) => rows.length >= burst.acked.length && rows.every((d) => d.state === 'delivered'),
      LEASE_WAIT_MS,
      (rows) => `${rows.filter((d) => d.state !== 'delivered').length} of ${rows.length} not delivered`,
      1_000,
    );
    expect(deliveries.filter((d) => d.state === 'dead')).toEqual([]);

    const { missing, duplicated, splitKeys } = tally(receiver.requests, burst.acked);
    expect(missing).toEqual([]);
    expect(splitKeys).toEqual([]);
    // No two requests for one delivery were ever in flight together (the killed instance's included: its
    // connections closed when it died, and its claims were taken over only once their lease ran out).
    expect(overlappingPairs(receiver.requests).map(([x, y]) => [x.key, x.path, y.path])).toEqual([]);
    // Beyond the retries the instances logged, a delivery reached the target again only after the killed
    // instance had sent it: at most the deliveries it had in flight.
    const retries = loggedRetries(processes);
    const resent = unexplainedResends(duplicated, retries);
    expect(resent.size).toBeLessThanOrEqual(CONCURRENCY);
    for (const [incident, requests] of resent) {
      const extra = requests.length - 1 - (retries.get(requests[0]?.key ?? '') ?? 0);
      expect({ incident, extra, fromKilled: requests.some((r) => r.path === '/a') }).toEqual({
        incident,
        extra: 1,
        fromKilled: true,
      });
    }
    // The delivery in flight at the kill was sent again by another instance once its lease ran out.
    const inFlight = await killedDuring;
    const sends = receiver.requests.filter((r) => r.key === inFlight?.key);
    expect(sends.map((r) => (r.path === '/a' ? 'killed' : 'live'))).toEqual(['killed', 'live']);
    expect(sends[1]?.status).toBe(200);
  }, 200_000);
});
