import { afterEach, describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/delivery/outcome.js';
import { createLogger } from '../../../src/log/create-logger.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { TEST_POLICY } from '../targets/make-target-spec.js';
import { describePostgres } from '../../store/describe-postgres.js';
import {
  engineHarness,
  httpSpec,
  scriptedTarget,
  waitFor,
  type Backend,
  type ScriptedTarget,
} from './engine-harness.js';

type Harness = Awaited<ReturnType<typeof engineHarness>>;

// One suite, both journals: the engine must behave the same on the embedded and the shared one.
const suites: [string, (name: string, body: () => void) => void, Backend][] = [
  ['SQLite', describe, 'sqlite'],
  ['PostgreSQL', describePostgres, 'postgres'],
];

for (const [journalName, describeOn, backend] of suites)
  describeOn(`delivery engine on ${journalName}`, () => {
    const harnesses: Harness[] = [];
    afterEach(async () => {
      for (const h of harnesses.splice(0)) await h.dispose();
    });
    async function setup(...[specs, targets, options]: Parameters<typeof engineHarness>): Promise<Harness> {
      const h = await engineHarness(specs, targets, { ...options, backend });
      harnesses.push(h);
      return h;
    }
    const states = (h: Harness, target?: string) =>
      h.store.findDeliveries({ target }).then((rows) => rows.map((d) => `${d.state}/${d.attempts}`));

    it('delivers every pending delivery once, with a stable delivery id and the event, and records the attempt', async () => {
      const a = scriptedTarget();
      const b = scriptedTarget();
      const h = await setup([httpSpec('a'), httpSpec('b')], { a, b });
      const events = await h.ingest(3, ['a', 'b']);
      await h.newEngine().start();

      await waitFor(
        () => states(h),
        (s) => s.length === 6 && s.every((x) => x === 'delivered/1'),
      );
      expect(a.jobs.map((job) => job.event.id)).toEqual(events);
      expect(a.jobs[0]?.attempt).toBe(1);
      expect(a.jobs[0]?.envelope).toMatchObject({ event: 'incident.created' });
      const [delivery] = await h.store.findDeliveries({ target: 'a', limit: 1 });
      expect(a.jobs[0]?.deliveryId).toBe(delivery?.id);
      expect(await h.store.listAttempts(delivery?.id as string)).toEqual([
        expect.objectContaining({ number: 1, outcome: 'delivered', statusCode: 200 }),
      ]);
      expect(await h.metrics.value('switchyard_delivery_attempts_total', { target: 'a', outcome: 'delivered' })).toBe(
        3,
      );
    });

    it('retries on its backoff schedule (full jitter), then dead-letters after max_attempts', async () => {
      const failing = scriptedTarget(() => ({ kind: 'retry', status: 503, error: 'HTTP 503' }));
      const policy = { retry: { initialDelayMs: 1_000, maxDelayMs: 4_000, maxAttempts: 4, maxAgeMs: 3_600_000 } };
      const h = await setup([httpSpec('t', policy)], { t: failing }, { random: () => 0.5 });
      await h.ingest(1, ['t']);
      const engine = h.newEngine();
      await engine.start();

      // Bounds 1 s, 2 s, 4 s (capped); random 0.5 gives half of each.
      for (const [attempts, wait] of [
        [1, 500],
        [2, 1_000],
        [3, 2_000],
      ] as const) {
        const [row] = await waitFor(
          () => h.store.findDeliveries({}),
          (rows) => rows[0]?.attempts === attempts,
        );
        expect(row?.nextAttemptAt).toBe(h.clock.now() + wait);
        h.clock.advance(wait - 1);
        engine.wake();
        await new Promise((resolve) => setTimeout(resolve, 30));
        expect(failing.jobs).toHaveLength(attempts);
        h.clock.advance(1);
        engine.wake();
      }
      const [dead] = await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.state === 'dead',
      );
      expect(dead).toMatchObject({ attempts: 4, lastError: 'gave up after 4 attempts: HTTP 503' });
      expect(failing.jobs.map((job) => job.attempt)).toEqual([1, 2, 3, 4]);
    });

    it('honours Retry-After, bounded by max_delay, and dead-letters when the next try would pass max_age', async () => {
      let retryAfterMs = 7_000;
      const target = scriptedTarget(() => ({ kind: 'retry', status: 429, error: 'HTTP 429', retryAfterMs }));
      const policy = { retry: { initialDelayMs: 1_000, maxDelayMs: 60_000, maxAttempts: 12, maxAgeMs: 100_000 } };
      const h = await setup([httpSpec('t', policy)], { t: target });
      await h.ingest(1, ['t']);
      const engine = h.newEngine();
      await engine.start();
      let [row] = await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.attempts === 1,
      );
      expect(row?.nextAttemptAt).toBe(h.clock.now() + 7_000);

      retryAfterMs = 3_600_000;
      h.clock.advance(7_000);
      engine.wake();
      [row] = await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.attempts === 2,
      );
      expect(row?.nextAttemptAt).toBe(h.clock.now() + 60_000);

      h.clock.advance(60_000);
      engine.wake();
      [row] = await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.state === 'dead',
      );
      expect(row?.lastError).toBe('gave up at the max_age limit: HTTP 429');
    });

    it('dead-letters a permanent failure at once, and a throwing target counts as retryable', async () => {
      const permanent = scriptedTarget(() => ({ kind: 'permanent', status: 400, error: 'invalid_payload' }));
      const throwing = scriptedTarget(() => {
        throw new Error('boom');
      });
      const h = await setup([httpSpec('p'), httpSpec('x')], { p: permanent, x: throwing });
      await h.ingest(1, ['p', 'x']);
      await h.newEngine().start();
      await waitFor(
        () => states(h),
        (s) => s.join() === 'dead/1,pending/1',
      );
      const [x] = await h.store.findDeliveries({ target: 'x' });
      expect(x?.lastError).toBe('target failed unexpectedly: boom');
    });

    it('waits for the rate limit without spending attempts', async () => {
      const target = scriptedTarget();
      const h = await setup([httpSpec('t', { rateLimit: { perSecond: 1, burst: 2 } })], { t: target });
      await h.ingest(5, ['t']);
      const engine = h.newEngine();
      await engine.start();
      await waitFor(
        () => target.jobs.length,
        (n) => n === 2,
      );
      // Waits for the two attempts to be recorded (a fixed 100 ms was too short on a loaded machine).
      await waitFor(
        () => states(h),
        (s) => s.join() === 'delivered/1,delivered/1,pending/0,pending/0,pending/0',
      );
      expect(target.jobs).toHaveLength(2);

      h.clock.advance(1_000);
      engine.wake();
      await waitFor(
        () => target.jobs.length,
        (n) => n === 3,
      );
      h.clock.advance(2_000);
      engine.wake();
      await waitFor(
        () => states(h),
        (s) => s.every((x) => x === 'delivered/1'),
      );
    });

    it('keeps at most `concurrency` attempts in flight per target', async () => {
      const releases: (() => void)[] = [];
      let peak = 0;
      let now = 0;
      const target = scriptedTarget(
        () =>
          new Promise<Outcome>((resolve) => {
            now += 1;
            peak = Math.max(peak, now);
            releases.push(() => {
              now -= 1;
              resolve({ kind: 'delivered', status: 200 });
            });
          }),
      );
      const h = await setup([httpSpec('t', { concurrency: 3, timeoutMs: 120_000 })], { t: target }); // held answers must not time out
      await h.ingest(7, ['t']);
      await h.newEngine().start();
      let released = 0;
      while (released < 7) {
        await waitFor(
          () => releases.length,
          (n) => n > 0,
        );
        const batch = releases.splice(0);
        released += batch.length;
        batch.forEach((release) => release());
      }
      await waitFor(
        () => states(h),
        (s) => s.every((x) => x === 'delivered/1'),
      );
      expect(peak).toBe(3);
      expect(target.jobs).toHaveLength(7);
    });

    it('a wake naming targets looks only at those; the others wait for a wake without names or the poll', async () => {
      const a = scriptedTarget();
      const b = scriptedTarget();
      const h = await setup([httpSpec('a'), httpSpec('b')], { a, b });
      // Which targets the engine asks the journal about (claims and next due times).
      const asked: string[] = [];
      const store = new Proxy(h.store, {
        get(journal, name, receiver) {
          const value: unknown = Reflect.get(journal, name, receiver);
          if (typeof value !== 'function') return value;
          if (name === 'claimDue')
            return (request: { target: string }, ...rest: unknown[]) => {
              asked.push(request.target);
              return (value as (...args: unknown[]) => unknown).call(journal, request, ...rest);
            };
          if (name === 'nextDueAt')
            return (target: string, ...rest: unknown[]) => {
              asked.push(target);
              return (value as (...args: unknown[]) => unknown).call(journal, target, ...rest);
            };
          return (value as (...args: unknown[]) => unknown).bind(journal);
        },
      });
      // A poll interval the test never reaches: only wakes start passes.
      const engine = h.newEngine({ store, pollIntervalMs: 600_000 });
      await engine.start();
      await waitFor(
        () => asked,
        (targets) => targets.includes('a') && targets.includes('b'),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      asked.length = 0;

      await h.ingest(2, ['a']);
      engine.wake(['a']);
      await waitFor(
        () => a.jobs.length,
        (n) => n === 2,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(new Set(asked)).toEqual(new Set(['a']));

      await h.ingest(1, ['b']);
      engine.wake(); // a replay, a released silence: every target
      await waitFor(
        () => b.jobs.length,
        (n) => n === 1,
      );
    });

    it('opens the circuit after consecutive failures, spends no attempts while open, and probes once', async () => {
      let up = false;
      const target: ScriptedTarget = scriptedTarget(() =>
        up ? { kind: 'delivered', status: 200 } : { kind: 'retry', status: 503, error: 'HTTP 503' },
      );
      const spec = httpSpec('t', { concurrency: 1, circuit: { failures: 3, cooldownMs: 30_000 } });
      const h = await setup([spec], { t: target }, { random: () => 0 });
      await h.ingest(6, ['t']);
      const captured = captureLogs();
      const log = createLogger({ level: 'info', stream: captured.stream, secrets: [] });
      const circuitLog = () =>
        captured
          .logs()
          .filter((line) => String(line.msg ?? line.message).startsWith('circuit'))
          .map((line) => [line.level, line.state, line.reason, line.next_probe_at]);
      const engine = h.newEngine({ log });
      const openedAt = h.clock.now();
      await engine.start();
      await waitFor(
        () => target.jobs.length,
        (n) => n === 3,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      // random 0 makes every retry due at once, so only the open circuit stops a fourth attempt.
      expect(target.jobs).toHaveLength(3);
      // The listing says when the probe is due (ahead of now), not a due time that has passed.
      const probeAt = openedAt + 30_000;
      expect(engine.status()).toEqual([
        { target: 't', inFlight: 0, awaitingRecord: 0, circuit: 'open', nextProbeAt: probeAt },
      ]);
      expect(circuitLog()).toEqual([
        ['warn', 'open', 'consecutive failures: HTTP 503', new Date(probeAt).toISOString()],
      ]);
      expect((await states(h)).filter((s) => s === 'pending/0')).toHaveLength(3);

      h.clock.advance(30_000);
      engine.wake();
      await waitFor(
        () => target.jobs.length,
        (n) => n === 4,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(target.jobs).toHaveLength(4); // the failed probe re-opened it
      expect(engine.status()[0]).toMatchObject({ circuit: 'open', nextProbeAt: h.clock.now() + 30_000 });
      expect(circuitLog().slice(1)).toEqual([
        ['info', 'half-open', 'the cool-down is over: one delivery probes the target', undefined],
        ['warn', 'open', 'the probe failed: HTTP 503', new Date(h.clock.now() + 30_000).toISOString()],
      ]);

      up = true;
      h.clock.advance(30_000);
      engine.wake();
      await waitFor(
        () => states(h),
        (s) => s.every((x) => x.startsWith('delivered')),
      );
      expect(engine.status()[0]?.circuit).toBe('closed');
      expect(circuitLog().slice(3)).toEqual([
        ['info', 'half-open', 'the cool-down is over: one delivery probes the target', undefined],
        ['info', 'closed', 'a delivery succeeded', undefined],
      ]);
    });

    it('after a crash, retries the deliveries that were in flight; stop() gives interrupted ones back uncounted', async () => {
      const hanging = scriptedTarget(
        (_job, signal) =>
          new Promise<Outcome>((resolve) =>
            signal.addEventListener('abort', () => resolve({ kind: 'retry', error: 'aborted by shutdown' })),
          ),
      );
      const h = await setup([httpSpec('t')], { t: hanging });
      await h.ingest(2, ['t']);
      // A process that claimed both and died: nobody records them.
      await h.store.claimDue({ target: 't', now: h.clock.now(), limit: 2, leaseMs: 600_000 });

      const engine = h.newEngine();
      await engine.start();
      await waitFor(
        () => hanging.jobs.length,
        (n) => n === 2,
      );
      await engine.stop(20);
      expect(hanging.signals.every((signal) => signal.aborted)).toBe(true);
      // A routine restart must not cost a delivery one of its attempts (on its last one it would be dead).
      expect(await states(h)).toEqual(['pending/0', 'pending/0']);
      expect(await h.store.claimDue({ target: 't', now: h.clock.now(), limit: 5, leaseMs: 1 })).toHaveLength(2);
      expect(hanging.closed).toBe(1);
    });

    it('redacts secrets and URLs in the stored attempt detail', async () => {
      const target = scriptedTarget(() => ({
        kind: 'permanent',
        status: 404,
        error: 'no_service for https://hooks.slack.test/services/T0/B0/s3cr3t-token; key=TOPSECRET',
      }));
      const h = await setup([httpSpec('t')], { t: target }, { secrets: ['TOPSECRET'] });
      await h.ingest(1, ['t']);
      await h.newEngine().start();
      const [dead] = await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.state === 'dead',
      );
      expect(dead?.lastError).toBe('no_service for https://hooks.slack.test/… key=[redacted]');
      const [attempt] = await h.store.listAttempts(dead?.id as string);
      expect(attempt?.detail).toBe(dead?.lastError);
    });

    it('keeps delivering to a target removed by a reload until its pending deliveries are done', async () => {
      const target = scriptedTarget();
      const h = await setup([httpSpec('old', { rateLimit: { perSecond: 1, burst: 1 } })], { old: target });
      await h.ingest(3, ['old']);
      const engine = h.newEngine();
      await engine.start();
      await waitFor(
        () => target.jobs.length,
        (n) => n === 1,
      );
      h.setRules([]);
      for (const n of [2, 3]) {
        h.clock.advance(1_000);
        engine.wake();
        await waitFor(
          () => target.jobs.length,
          (count) => count === n,
        );
      }
      await waitFor(
        () => states(h),
        (s) => s.every((x) => x === 'delivered/1'),
      );
      await waitFor(
        () => target.closed,
        (closed) => closed === 1,
      );
      expect(engine.status()).toEqual([]);
    });

    it('dead-letters, at start, pending deliveries of a target the rules no longer define', async () => {
      const kept = scriptedTarget();
      const h = await setup([httpSpec('kept')], { kept });
      await h.ingest(2, ['kept', 'gone']);
      await h.newEngine().start();
      const gone = await h.store.findDeliveries({ target: 'gone' });
      expect(gone.map((d) => [d.state, d.lastError])).toEqual([
        ['dead', 'target "gone" is not in the rules; replay these deliveries once it is back'],
        ['dead', 'target "gone" is not in the rules; replay these deliveries once it is back'],
      ]);
      await waitFor(
        () => states(h, 'kept'),
        (s) => s.every((x) => x === 'delivered/1'),
      );
    });

    it('pauses the whole target for a Retry-After, so queued deliveries do not each spend an attempt on it', async () => {
      let answers = 0;
      const target = scriptedTarget(() =>
        answers++ === 0
          ? { kind: 'retry', status: 429, error: 'HTTP 429', retryAfterMs: 30_000 }
          : { kind: 'delivered', status: 200 },
      );
      const h = await setup([httpSpec('t', { concurrency: 1 })], { t: target });
      await h.ingest(4, ['t']);
      const engine = h.newEngine();
      await engine.start();
      await waitFor(
        () => states(h),
        (s) => s.includes('pending/1'),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(target.jobs).toHaveLength(1);
      expect(await states(h)).toEqual(['pending/1', 'pending/0', 'pending/0', 'pending/0']);

      h.clock.advance(30_000);
      engine.wake();
      await waitFor(
        () => states(h),
        (s) => s.every((x) => x.startsWith('delivered')),
      );
      expect(target.jobs).toHaveLength(5);
    });

    it('dead-letters, without sending, a delivery whose max_age ran out while it waited its turn', async () => {
      const target = scriptedTarget();
      const h = await setup([httpSpec('t', { retry: { ...TEST_POLICY.retry, maxAgeMs: 60_000 } })], { t: target });
      await h.ingest(1, ['t']);
      h.clock.advance(120_000); // the daemon was down, or the backlog long
      await h.newEngine().start();
      const [dead] = await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.state === 'dead',
      );
      expect(dead?.lastError).toBe('not sent: older than max_age (60000 ms) when its turn came');
      expect(target.jobs).toHaveLength(0);
    });

    it('keeps serving the other targets when one cannot even be set up', async () => {
      const good = scriptedTarget();
      const h = await setup([httpSpec('bad'), httpSpec('good')], { good });
      await h.ingest(2, ['bad', 'good']);
      await h.newEngine().start();
      await waitFor(
        () => states(h, 'good'),
        (s) => s.every((x) => x === 'delivered/1'),
      );
      expect(await states(h, 'bad')).toEqual(['pending/0', 'pending/0']);
    });

    it('dead-letters again, at the next sweep, a replay made before its target is back in the rules', async () => {
      const kept = scriptedTarget();
      const h = await setup([httpSpec('kept')], { kept });
      await h.ingest(1, ['gone']);
      const engine = h.newEngine();
      await engine.start();
      const [dead] = await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.state === 'dead',
      );
      await h.store.replay({ ids: [dead?.id as string] }, h.clock.now());
      h.clock.advance(60_000);
      engine.wake();
      await waitFor(
        () => h.store.findDeliveries({}),
        (rows) => rows[0]?.state === 'dead',
      );
    });
  });
