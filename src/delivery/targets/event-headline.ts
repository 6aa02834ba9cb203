import type { EventDetails } from './read-event-details.js';

/**
 * The headline of a default message: the event's title, or a phrase for its kind (`Agent offline: host-7`,
 * `New incident inc_1`), the same for every chat target.
 */
export function eventHeadline(kind: string, details: EventDetails): string {
  if (details.title !== undefined) return details.title;
  const { incident, host } = details;
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
