import type { EventDetails } from './read-event-details.js';

/**
 * The headline of a default message: the event's title, or a phrase for its kind (`Agent offline: host-7`,
 * `New incident inc_1`), the same on every chat target and in the PagerDuty summary.
 */
export function eventHeadline(kind: string, details: EventDetails): string {
  return details.title ?? eventPhrase(kind, details);
}

/**
 * The phrase for an event's kind and what it is about, for an event without a `title`. The PagerDuty summary
 * also falls back to it when the title is nothing once made one line (control characters only).
 */
export function eventPhrase(kind: string, { incident, host }: EventDetails): string {
  const on = host === undefined ? '' : ` on ${host}`;
  switch (kind) {
    case 'incident.created':
      return incident === undefined ? 'New incident' : `New incident ${incident}`;
    case 'incident.updated':
      return incident === undefined ? 'Incident updated' : `Incident ${incident} updated`;
    case 'incident.resolved':
      return incident === undefined ? 'Incident resolved' : `Incident ${incident} resolved`;
    case 'agent.offline':
      return `Agent offline: ${host ?? 'unknown host'}`;
    case 'agent.online':
      return `Agent back online: ${host ?? 'unknown host'}`;
    case 'threat.detected':
      return `Threat detected${on}`;
    case 'compliance.violation':
      return `Compliance violation${on}`;
    default:
      return `Event ${kind}${on}`;
  }
}
