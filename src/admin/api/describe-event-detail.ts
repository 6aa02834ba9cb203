import { validateEnvelope } from '../../ingest/parse-envelope.js';
import type { StoredEvent } from '../../store/store.js';
import type { AdminApiDeps } from './admin-api-deps.js';
import { explainEnvelope } from './explain-envelope.js';
import { presentAttempt, presentDelivery } from './present-delivery.js';

/**
 * What an event's page shows besides the event: how the rules in force route it now (at its receipt time, so
 * time-based mutes read as they did then) next to the version that routed it, and each delivery with its
 * attempt history and the lifecycle references of its key at its target. Secrets never appear: the body is
 * what the sender signed, attempts were redacted before they were stored, and targets are named, not shown.
 */
export async function describeEventDetail(deps: AdminApiDeps, event: StoredEvent, body: unknown) {
  const rules = deps.rules();
  let explanation = null;
  try {
    const routed = await explainEnvelope(deps.store, rules, validateEnvelope(body), event.receivedAt);
    explanation = {
      ...routed,
      rulesVersionNow: rules.version,
      rulesVersionAtIngest: event.rulesVersion,
      sameRules: rules.version === event.rulesVersion,
    };
  } catch {
    // A body that is no envelope (a journal written by something else): no explanation rather than a 500.
  }
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
  return { explanation, deliveries: detailed };
}
