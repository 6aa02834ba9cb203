/**
 * What a receiver may deduplicate a delivery by: the delivery id (`dlv_17`) on every attempt, retries included,
 * and `dlv_17.r1`, `dlv_17.r2`… once a delivered delivery has been replayed (its `generation`), because such a
 * replay is a deliberate resend that a deduplicating receiver must not drop as the copy it already has.
 */
export function idempotencyKey(deliveryId: string, generation: number): string {
  return generation > 0 ? `${deliveryId}.r${generation}` : deliveryId;
}
