import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { createTarget } from '../../../src/delivery/targets/create-target.js';
import type { Outcome } from '../../../src/delivery/outcome.js';
import { describePostgres } from '../../store/describe-postgres.js';
import { startDeduplicatingReceiver, type DeduplicatingReceiver } from '../../helpers/start-deduplicating-receiver.js';
import { quietLog } from '../targets/make-target-spec.js';
import { engineHarness, httpSpec, scriptedTarget, waitFor, type Backend } from './engine-harness.js';

type Harness = Awaited<ReturnType<typeof engineHarness>>;

const suites: [string, (name: string, body: () => void) => void, Backend][] = [
  ['SQLite', describe, 'sqlite'],
  ['PostgreSQL', describePostgres, 'postgres'],
];

// A 429 is a rate limit, not a failure: with a circuit that opens after 3 failures for 60 s, a receiver that
// refuses each new request once used to open it again and again (20 deliveries took 365 s).
const POLICY = {
  concurrency: 4,
  circuit: { failures: 3, cooldownMs: 60_000 },
  retry: { initialDelayMs: 2_000, maxDelayMs: 600_000, maxAttempts: 2, maxAgeMs: 24 * 3_600_000 },
};

for (const [journalName, describeOn, backend] of suites)
  describeOn(`a rate-limiting target (429) on ${journalName}`, () => {
    const harnesses: Harness[] = [];
    const receivers: DeduplicatingReceiver[] = [];
    afterEach(async () => {
      for (const h of harnesses.splice(0)) await h.dispose();
      for (const receiver of receivers.splice(0)) await receiver.close();
    });

    /** Runs 20 deliveries against a target that answers 429 to each new key once; returns the time taken. */
    async function refusedOnceEach(retryAfterMs: number | undefined) {
      const seen = new Set<string>();
      const target = scriptedTarget((job): Outcome => {
        if (seen.has(job.idempotencyKey)) return { kind: 'delivered', status: 200 };
        seen.add(job.idempotencyKey);
        return { kind: 'retry', status: 429, error: 'HTTP 429', retryAfterMs, rateLimited: true };
      });
      const h = await engineHarness([httpSpec('t', POLICY)], { t: target }, { backend });
      harnesses.push(h);
      await h.ingest(20, ['t']);
      const engine = h.newEngine();
      const start = h.clock.now();
      await engine.start();
      const circuits = new Set<string>();
      for (let step = 0; step < 2_000; step++) {
        // Let the engine finish what it can start now, then move time on by 100 ms.
        await waitFor(
          () => engine.status(),
          (status) => status.every((lane) => lane.inFlight === 0),
        );
        await new Promise((resolve) => setTimeout(resolve, 15));
        for (const lane of engine.status()) circuits.add(lane.circuit);
        const rows = await h.store.findDeliveries({});
        if (rows.every((row) => row.state !== 'pending')) break;
        h.clock.advance(100);
        engine.wake();
      }
      const rows = await h.store.findDeliveries({});
      return { elapsed: h.clock.now() - start, circuits, rows, jobs: target.jobs.length };
    }

    it('pauses the target as Retry-After says, never opens the circuit, and spends no attempt on the 429', async () => {
      const run = await refusedOnceEach(1_000);
      // Five rounds of four (concurrency), each paused 1 s by its 429s: about 5 s (plus the shared journal's
      // re-check steps), not a 60 s open circuit after the third 429.
      expect(run.elapsed).toBeLessThanOrEqual(8_000);
      expect([...run.circuits]).toEqual(['closed']);
      // max_attempts is 2, yet every delivery is delivered with its 429 and its 200 both in the history.
      expect(run.rows.map((row) => `${row.state}/${row.attempts}`)).toEqual(Array(20).fill('delivered/2'));
      expect(run.jobs).toBe(40);
    });

    it('without Retry-After, pauses for the backoff delay (initial_delay, no jitter) instead', async () => {
      const run = await refusedOnceEach(undefined);
      // Five rounds paused 2 s each: about 10 s.
      expect(run.elapsed).toBeLessThanOrEqual(14_000);
      expect(run.elapsed).toBeGreaterThanOrEqual(10_000);
      expect([...run.circuits]).toEqual(['closed']);
      expect(run.rows.map((row) => `${row.state}/${row.attempts}`)).toEqual(Array(20).fill('delivered/2'));
    });

    it('through a real HTTP receiver answering 429 with Retry-After: 1 to each new request once', async () => {
      const receiver = await startDeduplicatingReceiver({ refuseNewOnce: { retryAfter: '1' } });
      receivers.push(receiver);
      // The events were received at the manual clock's start, a while before this real clock's now.
      const retry = { ...POLICY.retry, maxAgeMs: 3_650 * 24 * 3_600_000 };
      const spec = httpSpec('t', { ...POLICY, retry, concurrency: 10 });
      const h = await engineHarness([{ ...spec, url: `${receiver.url}/hook` }], {}, { backend });
      harnesses.push(h);
      await h.ingest(20, ['t']);
      const engine = h.newEngine({
        clock: systemClock,
        createTarget: (target, deps) => createTarget(target, { ...deps, log: quietLog }),
      });
      await engine.start();
      const circuits = new Set<string>();
      const rows = await waitFor(
        async () => {
          for (const lane of engine.status()) circuits.add(lane.circuit);
          return h.store.findDeliveries({});
        },
        (found) => found.every((row) => row.state === 'delivered'),
        15_000,
      );
      expect([...circuits]).toEqual(['closed']);
      expect(rows.map((row) => row.attempts)).toEqual(Array(20).fill(2));
      expect(receiver.keys).toHaveLength(40);
      expect(receiver.accepted).toHaveLength(20);
      const [first] = rows;
      expect((await h.store.listAttempts(first?.id as string)).map((a) => [a.outcome, a.statusCode])).toEqual([
        ['retry', 429],
        ['delivered', 200],
      ]);
    }, 20_000);
  });
