import { validateEnvelope } from '../../ingest/parse-envelope.js';
import type { StoredEvent } from '../../store/store.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { describeDigest } from './describe-digest.js';
import { explainEnvelope } from './explain-envelope.js';
import { presentAttempt, presentDelivery } from './present-delivery.js';

/**
 * What an event's page shows besides the event: how the rules in force route it now (at its receipt time, so
 * time-based mutes read as they did then) next to the version that routed it, or for a digest what it
 * collected (describeDigest); and each delivery with its
 * attempt history and the lifecycle references of its key at its target. Secrets never appear: the body is
 * what the sender signed, attempts were redacted before they were stored, and targets are named, not shown.
 */
export async function describeEventDetail(deps: AdminApiDeps, event: StoredEvent, body: unknown) {
  const digest = describeDigest(event, body);
  // A digest was made by its route for one target: the rules would only say that no route matches it.
  const explanation = digest === null ? await explainStored(deps, event, body) : null;
  const deliveries = await deps.store.listDeliveries(event.id);
  const detailed = await Promise.all(
    deliveries.map(async (delivery) => {
      const key = delivery.correlationKey ?? null;
      const [attempts, references] = await Promise.all([
        deps.store.listAttempts(delivery.id),
        key === null ? [] : deps.store.findReferences({ target: delivery.target, key, limit: 1 }),
      ]);
      return {
        ...presentDelivery(delivery),
        history: attempts.map(presentAttempt),
        references: references.map((ref) => ({ values: ref.values, updatedAt: new Date(ref.updatedAt).toISOString() })),
      };
    }),
  );
  return { explanation, digest, deliveries: detailed };
}

/** How the rules in force route the event now, next to the version that routed it at ingest. */
async function explainStored(deps: AdminApiDeps, event: StoredEvent, body: unknown) {
  const rules = deps.rules();
  try {
    const routed = await explainEnvelope(deps.store, rules, validateEnvelope(body), event.receivedAt);
    return {
      ...routed,
      rulesVersionNow: rules.version,
      rulesVersionAtIngest: event.rulesVersion,
      sameRules: rules.version === event.rulesVersion,
    };
  } catch {
    // A body that is no envelope (a journal written by something else): no explanation rather than a 500.
    return null;
  }
}
