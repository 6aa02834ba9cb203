import type { SourceConfig } from '../config/config.js';
import { correlationKeys } from '../lifecycle/correlation-keys.js';
import { incidentFacts } from '../lifecycle/incident-facts.js';
import { followCandidates } from '../lifecycle/follow-candidates.js';
import { silenceHolds } from '../noise/silence-holds.js';
import { groupChecks } from '../noise/group-checks.js';
import { throttleChecks } from '../noise/throttle-checks.js';
import { lazyEnvelopeContext } from '../templates/envelope-context.js';
import { routeEvent } from '../rules/route-event.js';
import type { RouteDecision } from '../rules/rules.js';
import type { DeliveryHold, FollowCandidate, IngestItem } from '../store/store.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { Envelope } from './envelope.js';
import type { IngestContext } from './ingest-context.js';
import { sha256Hex } from './sha256-hex.js';

export interface AcceptedEvent {
  readonly envelope: Envelope;
  readonly decision: RouteDecision;
  readonly item: IngestItem;
  /** The silence that holds every delivery of the event, when one does. */
  readonly silencedBy?: string | undefined;
}

/**
 * Everything between a verified, parsed body and the journal: replay check, route, and the item to commit.
 * The caller parses (parseEnvelope), so that it knows the event's kind even when this refuses it.
 * Throws a coded `SwitchyardError` (400) for an event that must be refused.
 */
/** Deliveries to targets only muted routes reach (`muted_during`) are recorded muted by the interval. */
function mutedHolds(decision: RouteDecision): (DeliveryHold | null)[] | undefined {
  const { muted } = decision;
  if (muted === undefined) return undefined;
  return decision.targets.map((target) => {
    const interval = muted[target];
    return interval === undefined ? null : { state: 'muted', by: interval };
  });
}

export function acceptEvent(
  ctx: IngestContext,
  source: SourceConfig,
  envelope: Envelope,
  body: Buffer,
  title: string | null,
): AcceptedEvent {
  const now = ctx.clock.now();
  if (source.maxEventAgeMs !== null && now - Date.parse(envelope.timestamp) > source.maxEventAgeMs) {
    throw new SwitchyardError(
      'event_too_old',
      `the event timestamp is older than max_event_age (${source.maxEventAgeMs} ms) for this source`,
      { status: 400 },
    );
  }
  const rules = ctx.rules();
  const decision = routeEvent(rules, envelope, now);
  const incident = incidentFacts(envelope, decision.severity, rules.severities);
  // Who this update or resolve may follow its incident to; the journal keeps those the incident reached.
  const followed = incident ? followCandidates(rules, envelope, decision.targets).map((f) => f.target) : [];
  const candidates = ctx.silences?.candidatesFor(envelope) ?? [];
  const silenced = silenceHolds(candidates, rules, envelope, [...decision.targets, ...followed], now);
  const holds = silenced?.holds.slice(0, decision.targets.length) ?? mutedHolds(decision);
  // The three key kinds render against one depth-limited copy of the event, made only if one needs it.
  const context = lazyEnvelopeContext(envelope);
  const { matchedRoutes, targets } = decision;
  const groups = holds ? undefined : groupChecks(rules, envelope, matchedRoutes, targets, context);
  const throttles = holds ? undefined : throttleChecks(rules, envelope, matchedRoutes, targets, context);
  const keys = correlationKeys(rules, envelope, targets, context);
  const followKeys = correlationKeys(rules, envelope, followed, context);
  const follow = followed.map((target, index): FollowCandidate => ({
    target,
    key: followKeys?.[index] ?? null,
    hold: silenced?.holds[decision.targets.length + index] ?? null,
  }));
  const item: IngestItem = {
    event: {
      id: ctx.newEventId(now),
      source: source.name,
      kind: envelope.event,
      severity: decision.severity.raw,
      occurredAt: envelope.timestamp,
      receivedAt: now,
      body,
      bodySha256: sha256Hex(body),
      rulesVersion: rules.version,
      matchedRoutes: decision.matchedRoutes,
      title,
    },
    targets: decision.targets,
    dedupeSince: now - ctx.config.dedupeWindowMs,
    ...(keys && { keys }),
    ...(holds && { holds }),
    ...(groups && { groups }),
    ...(throttles && { throttles }),
    ...(incident && { incident }),
    ...(follow.length > 0 && { follow }),
  };
  return { envelope, decision, item, silencedBy: silenced?.silenceId };
}
