import type { LookupFunction } from 'node:net';
import type { Logger } from '../log/logger.js';
import type { TargetSpec } from '../rules/rules.js';
import type { StoredEvent } from '../store/store.js';
import type { Outcome } from './outcome.js';

/** One attempt at one delivery, as the engine hands it to a target. */
export interface DeliveryJob {
  /** `dlv_<n>`. */
  readonly deliveryId: string;
  /**
   * Sent to HTTP targets as `Idempotency-Key` and part of an e-mail's `Message-ID`: the delivery id on every
   * attempt, a new one after a delivered delivery is replayed (idempotency-key.ts).
   */
  readonly idempotencyKey: string;
  /** 1-based number of this attempt. */
  readonly attempt: number;
  readonly event: StoredEvent;
  /** `event.body` parsed once by the engine (ingest validated it as an envelope). */
  readonly envelope: Readonly<Record<string, unknown>>;
  /** Issue 12: how many deliveries its throttle suppressed since the previous one let through. */
  readonly suppressedCount?: number;
  /** Issue 14: the delivery's correlation key, or null for a target without one. */
  readonly correlationKey?: string | null;
  /** Issue 14: values remembered for the key (`{{ ref.* }}`); null before anything was delivered for it. */
  readonly references?: Readonly<Record<string, string>> | null;
  /** E-mail: the recipients an earlier attempt left owed (the others got it); absent or null = every recipient. */
  readonly owed?: readonly string[] | null;
  /** Sent again after it was delivered (`replay --include-delivered`). */
  readonly replayed?: boolean;
}

/**
 * Any object with `send()` is a target (nodemailer's transport idea). `send` never throws and never retries:
 * every failure becomes an `Outcome`. It enforces the target's own timeout and also stops when `signal`
 * aborts (shutdown deadline), answering `retry`.
 */
export interface Target {
  send(job: DeliveryJob, signal: AbortSignal): Promise<Outcome>;
  /** Releases pooled connections; idempotent. */
  close(): Promise<void>;
}

export interface TargetDeps {
  readonly log: Logger;
  /** DNS lookup used for outbound connections, checked by the link-local/metadata guard; tests inject one. */
  readonly lookup?: LookupFunction | undefined;
}

/** May load the target's module first (create-target.ts), hence possibly a promise. */
export type CreateTarget = (spec: TargetSpec, deps: TargetDeps) => Target | Promise<Target>;
