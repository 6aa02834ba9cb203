import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.js';
import type { TargetSpec } from '../rules/rules.js';
import type { AttemptRecord, ClaimedDelivery } from '../store/store.js';
import { referencesToRecord } from '../lifecycle/references-to-record.js';
import { decideNextStep } from './decide-next-step.js';
import { idempotencyKey } from './idempotency-key.js';
import type { Outcome } from './outcome.js';
import { readOwed, withOwed } from './owed-recipients.js';
import { redactDetail } from './redact-detail.js';
import type { Target } from './target.js';

export interface AttemptInput {
  readonly claimed: ClaimedDelivery;
  readonly target: Target;
  readonly spec: TargetSpec;
  readonly clock: Clock;
  readonly random: () => number;
  readonly signal: AbortSignal;
  readonly secrets: readonly string[];
}

/**
 * One attempt: send through the target, then decide what follows. Never rejects: a target that throws
 * (a bug: targets answer with outcomes) counts as a retryable failure, so a delivery is never lost to it.
 */
export async function runAttempt(input: AttemptInput): Promise<{ record: AttemptRecord; outcome: Outcome }> {
  const { claimed, clock } = input;
  const startedAt = clock.now();
  const started = performance.now();
  const sent = await send(input);
  const durationMs = Math.max(0, Math.round(performance.now() - started));
  const now = Math.max(clock.now(), startedAt);
  const counted = !(sent.kind === 'retry' && sent.rateLimited === true);
  const step = decideNextStep({
    outcome: sent,
    attempts: claimed.scheduleAttempts + (counted ? 1 : 0),
    now,
    retryFrom: claimed.retryFrom,
    policy: input.spec.policy.retry,
    random: input.random(),
  });
  // The target pauses as long as the delivery waits (the Retry-After, or the default decided above).
  const outcome: Outcome =
    !counted && sent.kind === 'retry' && sent.retryAfterMs === undefined
      ? { ...sent, retryAfterMs: Math.max(0, step.nextAttemptAt - now) }
      : sent;
  const text = outcome.kind === 'delivered' ? (outcome.detail ?? null) : outcome.error;
  // What an earlier attempt left owed stays owed when this one failed before reaching the server.
  const owed = outcome.kind === 'delivered' ? null : (outcome.owed ?? owedBefore(input));
  // A delivered delivery keeps a capture miss as its last error: the listings' warning (capture-miss.ts).
  const lastError = step.lastError ?? (outcome.kind === 'delivered' ? (outcome.captureMiss ?? null) : null);
  return {
    outcome,
    record: {
      deliveryId: claimed.delivery.id,
      claimToken: claimed.claimToken,
      counted,
      references: step.state === 'delivered' ? referencesToRecord(claimed, outcome) : undefined,
      attempt: {
        startedAt,
        durationMs,
        outcome: step.state === 'pending' ? 'retry' : step.state,
        statusCode: outcome.status ?? null,
        detail: text === null ? null : redactDetail(text, input.secrets),
      },
      next: {
        ...step,
        lastError: withOwed(lastError === null ? null : redactDetail(lastError, input.secrets), owed),
      },
    },
  };
}

/** Beyond its own timeout, a target gets this long before the engine stops waiting (its lease is longer). */
const DEADLINE_GRACE_MS = 5_000;

async function send(input: AttemptInput): Promise<Outcome> {
  const { claimed } = input;
  const { maxAgeMs } = input.spec.policy.retry;
  if (input.clock.now() > claimed.retryFrom + maxAgeMs) {
    // Behind a backlog, an open circuit or a stopped daemon, a delivery can outlive max_age before its turn.
    return { kind: 'permanent', error: `not sent: older than max_age (${maxAgeMs} ms) when its turn came` };
  }
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(claimed.event.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { kind: 'permanent', error: 'the stored event body is not JSON' };
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'retry', error: 'the attempt overran its timeout' }),
      input.spec.policy.timeoutMs + DEADLINE_GRACE_MS,
    );
  });
  try {
    const job = {
      deliveryId: claimed.delivery.id,
      idempotencyKey: idempotencyKey(claimed.delivery.id, claimed.generation),
      attempt: claimed.delivery.attempts + 1,
      event: claimed.event,
      envelope,
      suppressedCount: claimed.suppressedCount ?? 0,
      correlationKey: claimed.delivery.correlationKey ?? null,
      references: claimed.references ?? null,
      owed: owedBefore(input),
      replayed: claimed.generation > 0,
    };
    return await Promise.race([input.target.send(job, input.signal), deadline]);
  } catch (error) {
    return {
      kind: 'retry',
      error: `target failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** What an earlier attempt left owed; only e-mail owes part of a delivery (other targets' errors are not read). */
function owedBefore(input: AttemptInput): string[] | null {
  return input.spec.type === 'email' ? readOwed(input.claimed.delivery.lastError) : null;
}
