import { RESOLVING_KINDS } from './choose-situation.js';

/** Kinds that carry on an incident a target already received: its updates and its resolve. */
export const FOLLOWING_KINDS: ReadonlySet<string> = new Set(['incident.updated', ...RESOLVING_KINDS]);

/** A target the incident reached before, with its `follow:` setting. */
export interface ReachedTarget {
  readonly target: string;
  readonly follow: boolean;
  /** The route that sent the incident's first delivery there, when known (the journal's explanations). */
  readonly via?: string | undefined;
}

/** A target an event goes to because it follows its incident there, not because a route matched. */
export interface FollowedTarget {
  readonly target: string;
  /** In words: `followed incident:inc_1 from route critical-pages`, or `(it received this incident before)`. */
  readonly reason: string;
}

/**
 * Where an incident's update or resolve goes besides its routes: to each target the incident reached before
 * (a delivery not held back by a silence, a mute or a throttle), unless the target does not follow (`follow:`, follow-candidates.ts) or a
 * route already sends it there. Events of other kinds (a create, a threat) and events without an incident key
 * follow nothing: routing alone decides them. Pure; at ingest `reached` is every candidate and the journal,
 * in the event's transaction, keeps those the incident really reached (docs/delivery.md#follow-through).
 */
export function followTargets(
  kind: string,
  incidentKey: string | null,
  routed: readonly string[],
  reached: readonly ReachedTarget[],
): FollowedTarget[] {
  if (incidentKey === null || !FOLLOWING_KINDS.has(kind)) return [];
  const reason = (via: string | undefined) =>
    via === undefined
      ? `followed ${incidentKey} (it received this incident before)`
      : `followed ${incidentKey} from route ${via}`;
  return reached
    .filter(({ target, follow }) => follow && !routed.includes(target))
    .map(({ target, via }) => ({ target, reason: reason(via) }));
}
