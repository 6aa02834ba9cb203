import { afterEach, expect, it } from 'vitest';
import { createMetrics } from '../../../src/admin/metrics.js';
import { SWITCHYARD_METRICS } from '../../../src/admin/switchyard-metrics.js';
import { manualClock } from '../../../src/clock.js';
import { createDeliveryEngine, type DeliveryEngine } from '../../../src/delivery/delivery-engine.js';
import type { Outcome } from '../../../src/delivery/outcome.js';
import type { CompiledRules, DeliveryPolicy } from '../../../src/rules/rules.js';
import type { Store } from '../../../src/store/store.js';
import { describePostgres } from '../../store/describe-postgres.js';
import { T0, makeIngestItem } from '../../store/make-ingest-item.js';
import { tempPostgresJournal, type TempPostgresJournal } from '../../store/temp-postgres-journal.js';
import { quietLog } from '../targets/make-target-spec.js';
import { httpSpec, scriptedTarget, type ScriptedTarget } from './engine-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Three instances' engines (each with its own pool) on one PostgreSQL journal, one clock, one receiving target.
 * `instances`, `beforeStart` (the journal as the engines will find it), `pollIntervalMs`, `reportDelayMs`
 * (each verdict's write to the shared circuit held that long first) and `reportGate` (held until it resolves)
 * for tests that need other than the defaults. `asked` counts the engines' `nextDueAt` calls.
 */
async function threeInstances(
  policy: Partial<DeliveryPolicy>,
  count: number,
  answer: ScriptedTarget['answer'] = () => ({ kind: 'delivered', status: 200 }),
  {
    instances = 3,
    beforeStart = async () => {},
    pollIntervalMs = 50,
    reportDelayMs = 0,
    reportGate = Promise.resolve(),
  }: {
    instances?: number;
    beforeStart?: (journal: TempPostgresJournal) => Promise<unknown>;
    pollIntervalMs?: number;
    reportDelayMs?: number;
    reportGate?: Promise<unknown>;
  } = {},
) {
  const journal = await tempPostgresJournal();
  cleanups.push(() => journal.dispose());
  // The first answer is set before any engine starts, or the first claims could race it.
  const target = scriptedTarget(answer);
  const rules = { targets: new Map([['t', httpSpec('t', policy)]]), secrets: [] } as unknown as CompiledRules;
  const stores: Store[] = [];
  const engines: DeliveryEngine[] = [];
  const clock = manualClock(T0);
  const asked = { nextDueAt: 0 };
  for (let n = 0; n < instances; n++) {
    const store = journal.openWith({});
    await store.migrate();
    stores.push(store);
    const shared = store.sharedTargets;
    const engine = createDeliveryEngine({
      // Counts how often the engines ask when a target's next delivery is due (a scan of its queue).
      store: {
        ...store,
        nextDueAt: (name) => ((asked.nextDueAt += 1), store.nextDueAt(name)),
        sharedTargets: shared && {
          ...shared,
          report: async (verdicts) => {
            await new Promise((r) => setTimeout(r, reportDelayMs));
            await reportGate;
            return shared.report(verdicts);
          },
        },
      },
      log: quietLog,
      clock,
      metrics: createMetrics(SWITCHYARD_METRICS),
      rules: () => rules,
      secrets: () => [],
      createTarget: () => target,
      random: () => 0.5,
      pollIntervalMs,
      releaseClaimsAtStart: false,
    });
    engines.push(engine);
    cleanups.push(async () => {
      await engine.stop(0);
      await store.close();
    });
  }
  const first = stores[0] as Store;
  await first.ingest(
    Array.from({ length: count }, (_, i) => makeIngestItem({ receivedAt: T0 - count + i, targets: ['t'] })),
  );
  await beforeStart(journal);
  for (const engine of engines) await engine.start();
  const advance = (ms: number) => {
    clock.advance(ms);
    for (const engine of engines) engine.wake();
  };
  return { target, engines, advance, store: first, asked };
}

/** Waits until the target has `count` sends, then a while longer to be sure no instance sends more. */
async function settlesAt(target: ScriptedTarget, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (target.jobs.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 400)); // eight polls of every engine
  expect(target.jobs).toHaveLength(count);
}

/** Answers held until `release` lets them go (delivered); released too before the engines stop. */
function heldAnswers() {
  const release: (() => void)[] = [];
  // Shutdown aborts what is still held: an attempt started after the last release must not keep stop() waiting.
  const hold = (_job: unknown, signal: AbortSignal) =>
    new Promise<Outcome>((resolve) => {
      release.push(() => resolve({ kind: 'delivered' }));
      signal.addEventListener('abort', () => resolve({ kind: 'retry', error: 'aborted by shutdown' }));
    });
  cleanups.push(async () => release.splice(0).forEach((done) => done()));
  return { hold, release };
}

describePostgres('pacing shared by instances on one PostgreSQL journal', () => {
  it('three instances together keep one rate limit: the burst, then per_second, not three times it', async () => {
    const { target, advance } = await threeInstances({ rateLimit: { perSecond: 2, burst: 3 }, concurrency: 10 }, 20);
    await settlesAt(target, 3);
    advance(1_000);
    await settlesAt(target, 5);
    advance(2_000); // four tokens' worth of time, but the bucket holds at most `burst`
    await settlesAt(target, 8);
  });

  it('three instances together keep one concurrency limit', async () => {
    // A long timeout: the held answers must not time out (the attempt deadline runs on real time) on a slow machine.
    const { hold, release } = heldAnswers();
    const { target } = await threeInstances({ concurrency: 2, timeoutMs: 120_000 }, 10, hold);
    await settlesAt(target, 2);
    release.splice(0).forEach((done) => done());
    await settlesAt(target, 4);
    release.splice(0).forEach((done) => done());
  });

  it("a claim cut short by another instance's attempts in flight looks again without asking when the next is due", async () => {
    // Another instance holds 2 of the concurrency of 3: each claim of this one may start 1 of the 4 left. The
    // poll is long, so only the attempts' ends wake the lane (answered at once, the slot is free again).
    const otherHolds = (journal: TempPostgresJournal) =>
      journal.sql(
        `UPDATE deliveries SET claim_token = 'other', next_attempt_at = ${T0 + 600_000}
         WHERE id IN (SELECT id FROM deliveries ORDER BY id LIMIT 2)`,
      );
    const { target, asked } = await threeInstances({ concurrency: 3 }, 6, undefined, {
      instances: 1,
      beforeStart: otherHolds,
      pollIntervalMs: 60_000,
    });
    await settlesAt(target, 4);
    // Four claims started one each (cut short: no scan); the fifth found nothing due and asked when (once).
    expect(asked.nextDueAt).toBe(1);
  });

  it('one circuit for all: an outage costs `failures` attempts in total, then one probe per cool-down', async () => {
    const circuit = { failures: 3, cooldownMs: 30_000 };
    const failing = (): Outcome => ({ kind: 'retry', status: 503, error: 'HTTP 503' });
    const { target, engines, advance } = await threeInstances({ concurrency: 1, circuit }, 8, failing);
    await settlesAt(target, 3);
    for (const engine of engines) expect(engine.status()).toMatchObject([{ target: 't', circuit: 'open' }]);

    advance(30_000); // half-open: one probe, whichever instance takes it; it fails and re-opens the circuit
    await settlesAt(target, 4);
    target.answer = () => ({ kind: 'delivered', status: 200 });
    advance(30_000); // the next probe succeeds and closes it; everything due goes out
    await settlesAt(target, 12);
    for (const engine of engines) expect(engine.status()).toMatchObject([{ circuit: 'closed' }]);
  });

  it('a failure keeps its slot until its verdict is in the shared circuit, however slow that write', async () => {
    // Were the record to commit before the verdict, a claim made in between would not see the circuit the third
    // failure opened, and send a fourth (seen in CI under load).
    const circuit = { failures: 3, cooldownMs: 30_000 };
    const failing = (): Outcome => ({ kind: 'retry', status: 503, error: 'HTTP 503' });
    const { target, engines } = await threeInstances({ concurrency: 1, circuit }, 6, failing, {
      instances: 1,
      reportDelayMs: 150,
    });
    await settlesAt(target, 3);
    expect(engines[0]?.status()).toMatchObject([{ target: 't', circuit: 'open' }]);
  });

  it("a Retry-After pause is in the shared row before the refused attempt's claim ends, however slow that write", async () => {
    // The other instances count the claim until its record commits, then claim: the pause must be there first.
    const refusing = (): Outcome => ({ kind: 'retry', status: 429, error: 'HTTP 429', retryAfterMs: 10_000 });
    const { target } = await threeInstances({ concurrency: 1 }, 5, refusing, { reportDelayMs: 150 });
    await settlesAt(target, 1);
  });

  it("a delivered attempt's record does not wait for its verdict: a stuck write to the shared circuit holds no slot", async () => {
    // A success can only close the circuit: an instance that claims before it is written sees the target more
    // closed than it is, never more open. So the record, which ends the claim, goes at once (issue 11).
    let release = (): void => {};
    const reportGate = new Promise<void>((resolve) => (release = resolve));
    const { target } = await threeInstances({ concurrency: 1 }, 3, undefined, { instances: 1, reportGate });
    cleanups.push(async () => release()); // runs first: the engines' stop waits for their verdicts
    await settlesAt(target, 3);
  });

  it("a success written after another instance's failures opened the circuit does not close it", async () => {
    // Instance X delivers, but its verdict's write is stuck; its record ends the claim. Instance Y then fails
    // twice and opens the circuit. X's success, answered before those failures, lands last: the circuit stays
    // open and Y sends nothing more (a review's reproduction; before the fix 5 sends, 2 into the outage).
    const journal = await tempPostgresJournal();
    cleanups.push(() => journal.dispose());
    const circuit = { failures: 2, cooldownMs: 30_000 };
    let answers = 0;
    const target = scriptedTarget((): Outcome =>
      (answers += 1) === 1 ? { kind: 'delivered', status: 200 } : { kind: 'retry', status: 503, error: 'HTTP 503' },
    );
    const rules = { targets: new Map([['t', httpSpec('t', { concurrency: 1, circuit })]]), secrets: [] };
    const clock = manualClock(T0);
    let release = (): void => {};
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const instance = async (gate: Promise<void>) => {
      const store = journal.openWith({});
      await store.migrate();
      const shared = store.sharedTargets;
      const engine = createDeliveryEngine({
        store: { ...store, sharedTargets: shared && { ...shared, report: (v) => gate.then(() => shared.report(v)) } },
        log: quietLog,
        clock,
        metrics: createMetrics(SWITCHYARD_METRICS),
        rules: () => rules as unknown as CompiledRules,
        secrets: () => [],
        createTarget: () => target,
        random: () => 0.5,
        pollIntervalMs: 50,
        releaseClaimsAtStart: false,
      });
      return { store, engine };
    };
    const x = await instance(stuck);
    const y = await instance(Promise.resolve());
    await x.store.ingest([makeIngestItem({ receivedAt: T0 - 10, targets: ['t'] })]);
    await x.engine.start();
    const deadline = Date.now() + 5_000;
    while ((await x.store.findDeliveries({ state: 'delivered' })).length < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const xStopped = x.engine.stop(0); // claims nothing more; waits for its stuck verdict
    cleanups.push(async () => {
      release();
      await xStopped;
      await x.store.close();
    });
    cleanups.push(async () => {
      await y.engine.stop(0);
      await y.store.close();
    });
    clock.advance(1); // Y's answers come after X's
    await y.store.ingest(
      Array.from({ length: 6 }, (_, i) => makeIngestItem({ receivedAt: T0 - 9 + i, targets: ['t'] })),
    );
    await y.engine.start();
    await settlesAt(target, 3); // one delivered, two failures: open
    release();
    await settlesAt(target, 3);
    expect(y.engine.status()).toMatchObject([{ target: 't', circuit: 'open' }]);
  });

  it("a target's Retry-After pauses every instance", async () => {
    const refusing = (): Outcome => ({ kind: 'retry', status: 429, error: 'HTTP 429', retryAfterMs: 10_000 });
    const { target, advance } = await threeInstances({ concurrency: 1 }, 5, refusing);
    await settlesAt(target, 1);
    target.answer = () => ({ kind: 'delivered', status: 200 });
    advance(9_999);
    await settlesAt(target, 1);
    advance(1);
    await settlesAt(target, 6); // the four others, and the refused one, whose retry honoured Retry-After too
  });
});
