import type { Metrics } from '../admin/metrics.js';
import type { Clock } from '../clock.js';
import { createGroupCommit } from '../ingest/group-commit.js';
import type { Logger } from '../log/logger.js';
import type { CompiledRules } from '../rules/rules.js';
import type { AttemptRecord, Store } from '../store/store.js';
import { createDeliveryLane, laneCapacity, laneUnblocksAt, type DeliveryLane } from './delivery-lane.js';
import { runAttempt } from './run-attempt.js';
import type { CreateTarget, Target, TargetDeps } from './target.js';

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
}

export interface TargetStatus {
  readonly target: string;
  readonly inFlight: number;
  readonly circuit: 'closed' | 'open' | 'half-open';
}

export interface DeliveryEngine {
  /** Releases claims a crashed process left behind (single-engine journal), then starts working. */
  start(): Promise<void>;
  /** Looks for due deliveries soon (after an ingest commit, a replay, a finished attempt). */
  wake(): void;
  /** Per-target state, for health and the admin API. */
  status(): TargetStatus[];
  /**
   * Claims nothing more, lets attempts in flight finish for up to `deadlineMs`, then aborts the rest (they are
   * recorded as retryable failures, so they are tried again after a restart), records everything, closes clients.
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
  const users = new Map<Target, number>();
  const retired = new Set<Target>();
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();
  const writer = createGroupCommit((records: readonly AttemptRecord[]) =>
    store.recordAttempts(records).then(() => records.map(() => undefined)),
  );
  let stopping = false;
  let passing = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let loggedFailureAt = 0;

  const closeTarget = (target: Target): void => {
    target.close().catch((error: unknown) => log.warn('closing a delivery target failed', { error: String(error) }));
  };
  const syncLanes = (rules: CompiledRules, now: number): void => {
    for (const [name, spec] of rules.targets) {
      const lane = lanes.get(name);
      if (lane?.spec === spec) continue;
      if (lane !== undefined) retire(lane.target);
      const target = options.createTarget(spec, { ...options.targetDeps, log });
      lanes.set(name, createDeliveryLane(spec, target, now, lane));
    }
  };
  const retire = (target: Target): void => {
    if ((users.get(target) ?? 0) === 0) closeTarget(target);
    else retired.add(target);
  };

  const launch = (lane: DeliveryLane, claimed: Parameters<typeof runAttempt>[0]['claimed'], now: number): void => {
    lane.inFlight += 1;
    lane.bucket?.take(now);
    lane.circuit.started();
    const { target } = lane;
    users.set(target, (users.get(target) ?? 0) + 1);
    const work = runAttempt({
      claimed,
      target,
      spec: lane.spec,
      clock,
      random,
      signal: abort.signal,
      secrets: options.secrets(),
    })
      .then(async ({ record, outcome }) => {
        lane.circuit.record(outcome.kind, clock.now());
        options.metrics.increment('switchyard_delivery_attempts_total', {
          target: lane.spec.name,
          outcome: record.attempt.outcome,
        });
        options.metrics.observe(
          'switchyard_delivery_attempt_duration_seconds',
          { target: lane.spec.name },
          record.attempt.durationMs / 1000,
        );
        logAttempt(log, claimed.delivery.id, claimed.event.id, lane.spec.name, record);
        await writer.submit(record).catch((error: unknown) => {
          // The claim stays in the journal and its lease runs out, so the delivery is tried again later.
          log.error('recording a delivery attempt failed; it will be retried', {
            delivery: claimed.delivery.id,
            error: String(error),
          });
        });
      })
      .finally(() => {
        const current = lanes.get(lane.spec.name);
        if (current !== undefined) current.inFlight -= 1;
        if (current !== lane) lane.inFlight -= 1;
        const left = (users.get(target) ?? 1) - 1;
        users.set(target, left);
        if (left === 0 && retired.delete(target)) closeTarget(target);
        inFlight.delete(work);
        wake();
      });
    inFlight.add(work);
  };

  const pass = async (): Promise<number> => {
    const now = clock.now();
    const rules = options.rules();
    syncLanes(rules, now);
    let nextWake = now + pollIntervalMs;
    for (const [name, lane] of lanes) {
      const due = await serveLane(lane, now);
      if (due === undefined && !rules.targets.has(name) && lane.inFlight === 0) {
        // Removed from the rules and drained: only now is its client released.
        lanes.delete(name);
        retire(lane.target);
        log.info('target removed from the rules has drained', { target: name });
      } else if (due !== undefined) nextWake = Math.min(nextWake, due);
    }
    return nextWake;
  };

  /**
   * Starts what the lane may start now; returns when it next needs a pass, or undefined when it has
   * nothing pending. A target removed by a reload keeps its lane (and last options) until its pending
   * deliveries are done: a reload never strands accepted events.
   */
  const serveLane = async (lane: DeliveryLane, now: number): Promise<number | undefined> => {
    const target = lane.spec.name;
    const capacity = laneCapacity(lane, now);
    if (capacity === 0) {
      // Full (a finished attempt wakes the engine), or waiting for a token or an open circuit.
      if (lane.inFlight > 0) return laneUnblocksAt(lane, now) ?? now + pollIntervalMs;
      const due = await store.nextDueAt(target);
      return due === undefined ? undefined : Math.max(due, laneUnblocksAt(lane, now) ?? now + 1);
    }
    const limit = Math.min(capacity, claimBatch);
    const leaseMs = lane.spec.policy.timeoutMs + 60_000;
    const claims = await store.claimDue({ target, now, limit, leaseMs });
    for (const claimed of claims) launch(lane, claimed, now);
    if (claims.length === limit) return now;
    const due = await store.nextDueAt(target);
    return due === undefined ? (lane.inFlight > 0 ? now + pollIntervalMs : undefined) : Math.max(due, now + 1);
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
      const now = clock.now();
      if (now - loggedFailureAt > 60_000) {
        loggedFailureAt = now;
        log.error('delivery pass failed; retrying', { error: String(error) });
      }
    } finally {
      passing = false;
    }
    schedule(Math.max(0, nextWake - clock.now()));
  };
  const schedule = (delayMs: number): void => {
    if (stopping) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = undefined;
        void run();
      },
      Math.min(delayMs, pollIntervalMs),
    );
    timer.unref();
  };
  let wakeQueued = false;
  const wake = (): void => {
    if (stopping || wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      void run();
    });
  };

  /**
   * Pending deliveries of a target the rules no longer define (removed while they were pending, then the
   * daemon restarted) cannot be sent: dead-lettered at start, loudly, so they are visible and replayable
   * instead of waiting forever. While the daemon runs, a removed target drains instead (see serveLane).
   */
  const deadLetterOrphans = async (now: number): Promise<void> => {
    const known = options.rules().targets;
    for (const { target, state, count } of await store.countByTarget()) {
      if (state !== 'pending' || known.has(target)) continue;
      const reason = `target "${target}" is not in the rules; replay these deliveries once it is back`;
      const dead = await store.deadLetterTarget(target, reason, now);
      log.error('pending deliveries of a target that is not in the rules were dead-lettered', {
        target,
        count: dead || count,
      });
    }
  };

  return {
    async start() {
      const now = clock.now();
      const released = await store.releaseAllClaims(now);
      if (released > 0) log.warn('deliveries left in flight by a previous run are due again', { count: released });
      await deadLetterOrphans(now);
      wake();
    },
    wake,
    status: () =>
      [...lanes.values()].map((lane) => ({
        target: lane.spec.name,
        inFlight: lane.inFlight,
        circuit: lane.circuit.state(clock.now()),
      })),
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
      await writer.drain();
      for (const lane of lanes.values()) closeTarget(lane.target);
      for (const target of retired) closeTarget(target);
      lanes.clear();
    },
  };
}

function logAttempt(log: Logger, delivery: string, event: string, target: string, record: AttemptRecord): void {
  const fields = {
    delivery,
    event,
    target,
    outcome: record.attempt.outcome,
    status: record.attempt.statusCode,
    duration_ms: record.attempt.durationMs,
    detail: record.attempt.detail,
    next_attempt_at: record.next.state === 'pending' ? new Date(record.next.nextAttemptAt).toISOString() : undefined,
  };
  if (record.attempt.outcome === 'dead') log.warn('delivery dead-lettered', fields);
  else if (record.attempt.outcome === 'retry') log.info('delivery attempt failed; will retry', fields);
  else log.info('delivered', fields);
}
