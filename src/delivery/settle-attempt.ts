import type { Metrics } from '../admin/metrics.js';
import type { Logger } from '../log/logger.js';
import type { AttemptRecord, ClaimedDelivery, Store } from '../store/store.js';
import type { Outcome } from './outcome.js';

export interface SettleContext {
  readonly store: Store;
  readonly log: Logger;
  readonly metrics: Metrics;
  /**
   * Records attempts in groups (one transaction per group), trying again while the journal refuses, until the
   * claim's lease ends (`leaseEnd`, ms) or shutdown.
   */
  readonly record: (record: AttemptRecord, leaseEnd: number) => Promise<void>;
}

/**
 * What happens after an attempt: counted, logged and recorded, except an attempt cut short by shutdown,
 * whose claim is released instead, so a restart tries it again without it costing one of its attempts (a
 * delivery on its last attempt would otherwise be dead-lettered by a routine restart).
 */
export async function settleAttempt(
  ctx: SettleContext,
  target: string,
  claimed: ClaimedDelivery,
  result: { readonly record: AttemptRecord; readonly outcome: Outcome },
  interrupted: boolean,
  leaseEnd: number,
): Promise<void> {
  const { record, outcome } = result;
  const delivery = claimed.delivery.id;
  if (interrupted && outcome.kind === 'retry') {
    await ctx.store
      .releaseClaims([
        { deliveryId: delivery, claimToken: claimed.claimToken, nextAttemptAt: record.attempt.startedAt },
      ])
      .catch(() => undefined); // If even that fails, the lease runs out and the delivery is due again.
    ctx.log.info('attempt interrupted by shutdown; it will be tried again', { delivery, target });
    return;
  }
  ctx.metrics.increment('switchyard_delivery_attempts_total', { target, outcome: record.attempt.outcome });
  if (record.next.state === 'skipped') {
    ctx.metrics.increment('switchyard_deliveries_skipped_total', { target, reason: 'nothing_to_resolve' });
  }
  ctx.metrics.observe('switchyard_delivery_attempt_duration_seconds', { target }, record.attempt.durationMs / 1000);
  logAttempt(ctx.log, delivery, claimed.event.id, target, record);
  const refused = outcome.refused ?? [];
  if (refused.length > 0) {
    ctx.metrics.increment('switchyard_email_recipients_refused_total', { target }, refused.length);
    ctx.log.warn('e-mail recipients refused', { delivery, target, refused, outcome: record.attempt.outcome });
  }
  if (outcome.kind === 'delivered' && outcome.captureMiss !== undefined) {
    // Delivered, but the key's later requests that need the value cannot be built: the operator must know.
    ctx.metrics.increment('switchyard_capture_misses_total', { target });
    ctx.log.warn('capture missed', { delivery, event: claimed.event.id, target, detail: record.next.lastError });
  }
  await ctx.record(record, leaseEnd).catch((error: unknown) => {
    // Given up at the lease's end, at shutdown, or at once when the journal is gone until a restart: the claim
    // stays in the journal until it runs out or a restart releases it, so the delivery is sent again.
    ctx.log.error('recording a delivery attempt failed; the delivery will be sent again', {
      delivery,
      error: String(error),
    });
  });
}

function logAttempt(log: Logger, delivery: string, event: string, target: string, record: AttemptRecord): void {
  const next = record.next.nextAttemptAt;
  const fields = {
    delivery,
    event,
    target,
    outcome: record.attempt.outcome,
    status: record.attempt.statusCode,
    duration_ms: record.attempt.durationMs,
    detail: record.attempt.detail,
    // An absurd schedule must not throw here (toISOString on an out-of-range date).
    next_attempt_at: record.next.state === 'pending' && Number.isFinite(next) ? safeIso(next) : undefined,
  };
  if (record.attempt.outcome === 'dead') log.warn('delivery dead-lettered', fields);
  else if (record.attempt.outcome === 'skipped') log.info('delivery skipped', fields);
  else if (record.attempt.outcome === 'retry') log.info('delivery attempt failed; will retry', fields);
  // Per delivery, so at `debug` like `event received` (issue 11); failures stay at `info` and `warn`.
  else log.debug('delivered', fields);
}

function safeIso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
