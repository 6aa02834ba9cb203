import type { IncidentRecord } from '../../lifecycle/incident-record.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** An incident record as the API shows it: times as ISO 8601 (UTC), the internal severity rank left out. */
export function presentIncident(record: IncidentRecord) {
  return {
    source: record.source,
    key: record.key,
    state: record.state,
    title: record.title,
    severityHighest: record.severityHighest,
    severityCurrent: record.severityCurrent,
    host: record.host,
    agent: record.agent,
    firstEventId: record.firstEventId,
    firstAt: iso(record.firstAt),
    lastEventId: record.lastEventId,
    lastAt: iso(record.lastAt),
    events: record.events,
    resolvedAt: record.resolvedAt === null ? null : iso(record.resolvedAt),
    reopened: record.reopened,
  };
}
