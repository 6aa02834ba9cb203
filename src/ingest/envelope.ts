/** The upstream service's webhook body. Extra top-level fields are kept in the raw body but not typed here. */
export interface Envelope {
  readonly event: string;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The event kinds the upstream documents; anything else is accepted and routed, with a warning. */
export const KNOWN_EVENT_KINDS: ReadonlySet<string> = new Set([
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'agent.offline',
  'agent.online',
  'threat.detected',
  'compliance.violation',
]);

/** Events Switchyard raises itself (issue 12), journaled and routed like the upstream's. */
export const SWITCHYARD_EVENT_KINDS: ReadonlySet<string> = new Set([
  'switchyard.source_silent',
  'switchyard.source_recovered',
]);
