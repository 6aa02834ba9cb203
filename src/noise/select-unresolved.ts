import { defaultCorrelationKey } from '../lifecycle/default-correlation-key.js';
import { RESOLVING_KINDS } from '../lifecycle/choose-situation.js';

/** An event as `selectUnresolved` reads it: its kind, `data`, and when it was received (ms). */
export interface HeldEventFacts {
  readonly kind: string;
  readonly data: unknown;
  readonly receivedAt: number;
}

/**
 * For `on_expiry: deliver_unresolved`: which held deliveries are still worth sending when their silence ends.
 * A delivery is sent unless its incident or agent (the default correlation key) was resolved meanwhile, i.e.
 * an `incident.resolved` / `agent.online` of the same key was received at or after it (held or not). Resolving
 * events themselves are never sent late: they close something the team never saw open. Events with no key
 * (threats, compliance violations) have no resolution and are sent.
 */
export function selectUnresolved(
  held: readonly { readonly deliveryId: string; readonly event: HeldEventFacts }[],
  resolutions: readonly HeldEventFacts[],
): string[] {
  const resolvedAt = new Map<string, number>();
  for (const event of resolutions) {
    const key = RESOLVING_KINDS.has(event.kind) ? defaultCorrelationKey(event.kind, event.data) : null;
    if (key !== null) resolvedAt.set(key, Math.max(resolvedAt.get(key) ?? 0, event.receivedAt));
  }
  return held
    .filter(({ event }) => {
      if (RESOLVING_KINDS.has(event.kind)) return false;
      const key = defaultCorrelationKey(event.kind, event.data);
      return key === null || (resolvedAt.get(key) ?? Number.NEGATIVE_INFINITY) < event.receivedAt;
    })
    .map(({ deliveryId }) => deliveryId);
}
