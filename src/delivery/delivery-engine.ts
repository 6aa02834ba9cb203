import type { Metrics } from '../admin/metrics.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { CompiledRules } from '../rules/rules.js';
import type { ClaimedDelivery, Store } from '../store/store.js';
import { createAttemptRecorder } from './create-attempt-recorder.js';
import { createDeliveryLane, laneCapacity, laneStatus, laneUnblocksAt, type DeliveryLane } from './delivery-lane.js';
import { createLaneAgenda } from './lane-agenda.js';
import type { TargetStatus } from './target-status.js';
import { deadLetterOrphans } from './dead-letter-orphans.js';
import { logCircuitTransition } from './log-circuit-transition.js';
import { createLocalPacer } from './local-pacer.js';
import { launchAttempt, type AttemptDeps } from './launch-attempt.js';
import { createSharedPacer } from './shared-pacer.js';
import type { CreateTarget, TargetDeps } from './target.js';
import { createTargetClients } from './target-clients.js';

const ORPHAN_SWEEP_MS = 60_000;

export interface DeliveryEngineOptions {
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  readonly metrics: Metrics;
  /** The rules in force; read on every pass, so a reload takes effect at the next one. */
  readonly rules: () => CompiledRules;
  /** Values to mask in stored attempt details (config and rules secrets). */
  readonly secrets: () => readonly string[];
  readonly createTarget: CreateTarget;
  readonly targetDeps?: Omit<TargetDeps, 'log'>;
  /** Uniform in [0, 1); the jitter source. */
  readonly random?: () => number;
  /** Longest sleep between passes, so replays queued by another process are picked up within this. */
  readonly pollIntervalMs?: number;
  /** Largest claim per target per pass. */
  readonly claimBatch?: number;
  /**
   * Whether `start()` releases every claim in the journal: true only when this engine is the journal's only
   * one (SQLite), so any claim found was left by a process that died. On a shared journal (PostgreSQL) other
   * live instances hold claims; a dead one's expire with their leases instead. Default: whether the journal
   * is unshared (has no `sharedTargets`).
   */
  readonly releaseClaimsAtStart?: boolean;
}

export interface DeliveryEngine {
  /**
   * Releases claims a crashed process left behind (single-engine journal only), then starts working. A journal
   * that cannot be reached yet does not stop it: passes fail, are logged, and are retried until it answers.
   */
  start(): Promise<void>;
  /**
   * Looks for due deliveries soon (after an ingest commit, a replay, a finished attempt): for the named targets
   * only, or without names for every target. Targets not named are still looked at once per poll interval.
   */
  wake(targets?: Iterable<string>): void;
  /** Per-target state, for health and the admin API. */
  status(): TargetStatus[];
  /**
   * Claims nothing more, lets attempts in flight finish for up to `deadlineMs`, then aborts the rest: their
   * claims are released without counting an attempt (settle-attempt.ts), so a restart sends them again.
   * Records everything finished, closes the targets' clients.
   */
  stop(deadlineMs: number): Promise<void>;
}

/**
 * Moves deliveries from the journal to their targets. The queue lives in the journal, not in memory: each pass
 * claims, per target, only as many due deliveries as the target may start now (concurrency, token bucket,
 * circuit), so a large backlog costs no memory and waiting for a rate limit or an open circuit spends no attempts.
 * Finished attempts are recorded in groups, one transaction per group, like ingest.
 */
export function createDeliveryEngine(options: DeliveryEngineOptions): DeliveryEngine {
  const { store, log, clock } = options;
  const random = options.random ?? Math.random;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const claimBatch = options.claimBatch ?? 100;
  const lanes = new Map<string, DeliveryLane>();
  const clients = createTargetClients(log, (spec) => options.createTarget(spec, { ...options.targetDeps, log }));
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();
  const recorder = createAttemptRecorder({ store, log, clock, metrics: options.metrics, signal: abort.signal });
  const shared = store.sharedTargets;
  const pacer =
    shared === undefined
      ? createLocalPacer(store, clock)
      : createSharedPacer(shared, clock, (target, error) =>
          logFailure('reporting to the shared circuit failed', { target, error: String(error) }),
        );
  const agenda = createLaneAgenda(pollIntervalMs);
  let stopping = false;
  let passing = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let loggedFailureAt = Number.NEGATIVE_INFINITY;

  const syncLanes = async (rules: CompiledRules, now: number): Promise<void> => {
    for (const [name, spec] of rules.targets) {
      const lane = lanes.get(name);
      if (lane?.spec === spec) continue;
      const target = await clients.build(spec);
      if (target === undefined) continue;
      if (lane !== undefined) clients.retire(lane.target);
      lanes.set(name, createDeliveryLane(spec, target, now, lane, shared !== undefined));
      agenda.mark([name]);
    }
  };
  const attemptDeps: AttemptDeps = {
    lanes,
    clients,
    pacer,
    settle: recorder.context,
    log,
    clock,
    random,
    signal: abort.signal,
    secrets: options.secrets,
    wake: (targets) => wake(targets),
  };
  const launch = (lane: DeliveryLane, claimed: ClaimedDelivery, leaseEnd: number): void => {
    const work = launchAttempt(attemptDeps, lane, claimed, leaseEnd).finally(() => inFlight.delete(work));
    inFlight.add(work);
  };

  const pass = async (): Promise<number> => {
    const now = clock.now();
    const rules = options.rules();
    await syncLanes(rules, now);
    await sweepOrphans(rules, now);
    const { lanes: agendaLanes, full } = agenda.take(lanes.keys(), now);
    for (const { name } of agendaLanes) {
      const lane = lanes.get(name);
      if (lane === undefined) continue;
      // Woken while it can start nothing and already has a time of its own: that time serves it, or sooner the
      // moment its rate limit or pause lets it go (a time set while attempts were in flight may not know it).
      const dueAt = agenda.dueAt(name) ?? now;
      if (!full && laneCapacity(lane, now) === 0 && dueAt > now) {
        agenda.settle(name, Math.min(dueAt, laneUnblocksAt(lane, now) ?? dueAt));
        continue;
      }
      let due: number | undefined;
      try {
        due = await serveLane(lane, now);
      } catch (error) {
        logFailure('delivery pass failed for a target; retrying', { target: name, error: String(error) });
        due = now + pollIntervalMs;
      }
      if (due === undefined && !rules.targets.has(name) && lane.inFlight + lane.settling.size === 0) {
        // Removed from the rules and drained: only now is its client released.
        lanes.delete(name);
        agenda.forget(name);
        clients.retire(lane.target);
        log.info('target removed from the rules has drained', { target: name });
      } else agenda.settle(name, due);
    }
    return agenda.nextPassAt(clock.now());
  };

  /**
   * Starts what the lane may start now; returns when it next needs a pass, or undefined when it has
   * nothing pending. A target removed by a reload keeps its lane (and last options) until its pending
   * deliveries are done: a reload never strands accepted events.
   */
  const serveLane = async (lane: DeliveryLane, now: number): Promise<number | undefined> => {
    const target = lane.spec.name;
    logCircuitTransition(lane, now, log);
    const capacity = laneCapacity(lane, now);
    if (capacity === 0) {
      // Full (a finished attempt wakes the engine), or waiting for a token or an open circuit.
      if (lane.inFlight + lane.settling.size > 0) return laneUnblocksAt(lane, now) ?? now + pollIntervalMs;
      const due = await store.nextDueAt(target);
      return due === undefined ? undefined : Math.max(due, laneUnblocksAt(lane, now) ?? now + 1);
    }
    const limit = Math.min(capacity, claimBatch);
    const leaseMs = lane.spec.policy.timeoutMs + 60_000;
    const { claims, blockedUntil, heldBack } = await pacer.claim(lane, { target, now, limit, leaseMs });
    logCircuitTransition(lane, now, log);
    // What this says of the lane's due deliveries: a short claim while attempts settle may mean they wait behind
    // those attempts' keys (the answers then need not wake the lane); a full one that they do not.
    if (lane.settling.size > 0 || claims.length < limit) lane.claimedAll = claims.length < limit;
    for (const claimed of claims) launch(lane, claimed, now + leaseMs);
    // Full: there may be more, unless what is left waits behind attempts' keys; then their commits wake the lane.
    if (claims.length === limit) return lane.claimedAll ? now + pollIntervalMs : now;
    if (lane.settling.size > 0) return now + pollIntervalMs;
    // Cut short by shared pacing after it started some: more are likely due, so look again soon without asking
    // the journal when the next is (a scan of the target's queue); the started attempts' ends wake the lane too.
    if (heldBack === true) return now + pacer.recheckMs;
    const due = await store.nextDueAt(target);
    if (due === undefined) return lane.inFlight + lane.settling.size > 0 ? now + pollIntervalMs : undefined;
    // Due now but not claimed: held back by pacing kept elsewhere (or claimed meanwhile by another instance).
    return Math.max(due, blockedUntil ?? now + (due <= now ? pacer.recheckMs : 1));
  };

  const run = async (): Promise<void> => {
    if (stopping) return;
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    let nextWake = clock.now() + pollIntervalMs;
    try {
      do {
        again = false;
        nextWake = await pass();
      } while (again && !stopping);
    } catch (error) {
      logFailure('delivery pass failed; retrying', { error: String(error) });
    } finally {
      passing = false;
    }
    schedule(Math.max(0, nextWake - clock.now()));
  };
  const schedule = (delayMs: number): void => {
    if (stopping) return;
    if (timer !== undefined) clearTimeout(timer);
    const sleep = Math.min(delayMs, pollIntervalMs);
    timer = setTimeout(() => {
      timer = undefined;
      // The timer's pass serves the lanes waiting for a time of their own, or after a whole interval without a
      // pass every lane, whatever the clock says (a test's may stand still; the agenda counts on it).
      if (sleep === pollIntervalMs) agenda.mark();
      else agenda.markDue();
      void run();
    }, sleep);
    timer.unref();
  };
  let wakeQueued = false;
  const wake = (targets?: Iterable<string>): void => {
    if (stopping) return;
    agenda.mark(targets);
    if (wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      void run();
    });
  };

  // The journal-wide check for orphans (a GROUP BY) runs at start and then once a minute, not every pass.
  let sweptAt = Number.NEGATIVE_INFINITY;
  const sweepOrphans = async (rules: CompiledRules, now: number): Promise<void> => {
    if (now - sweptAt < ORPHAN_SWEEP_MS && now >= sweptAt) return;
    sweptAt = now;
    // Targets still draining after a reload count as known.
    await deadLetterOrphans(store, log, [...rules.targets.keys(), ...lanes.keys()], now);
  };
  const logFailure = (message: string, fields: Record<string, unknown>): void => {
    const now = clock.now();
    if (now - loggedFailureAt < 60_000) return;
    loggedFailureAt = now;
    log.error(message, fields);
  };

  return {
    async start() {
      const now = clock.now();
      if (options.releaseClaimsAtStart ?? shared === undefined) {
        const released = await store.releaseAllClaims(now);
        if (released > 0) log.warn('deliveries left in flight by a previous run are due again', { count: released });
      }
      try {
        await sweepOrphans(options.rules(), now);
      } catch (error) {
        sweptAt = Number.NEGATIVE_INFINITY; // the first pass tries again
        logFailure('delivery cannot reach the journal yet; retrying', { error: String(error) });
      }
      // Every target's client before the start resolves (some load their module on first use): status() and
      // the metrics name every target from then on.
      await syncLanes(options.rules(), now);
      wake();
    },
    wake: (targets) => wake(targets),
    status: () => [...lanes.values()].map((lane) => laneStatus(lane, clock.now())),
    async stop(deadlineMs) {
      stopping = true;
      if (timer !== undefined) clearTimeout(timer);
      while (passing) await new Promise((resolve) => setImmediate(resolve));
      if (inFlight.size > 0) {
        let expired: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inFlight]),
          new Promise((resolve) => (expired = setTimeout(resolve, deadlineMs))),
        ]);
        clearTimeout(expired);
        abort.abort();
        await Promise.allSettled([...inFlight]);
      }
      await recorder.drain();
      await pacer.drain();
      clients.closeAll([...lanes.values()].map((lane) => lane.target));
      lanes.clear();
    },
  };
}
