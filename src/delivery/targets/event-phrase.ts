import type { EventDetails } from './read-event-details.js';

/**
 * A headline for an event without a `title`, from its kind and what it is about (`New incident inc_1`,
 * `Agent offline: db-1`): the Slack card's and the PagerDuty summary's.
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
