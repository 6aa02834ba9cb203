import { RESOLVING_KINDS } from './choose-situation.js';
import type { IncidentEvent, IncidentRecord, IncidentState } from './incident-record.js';

/**
 * The incident after one more of its events, in arrival order: a resolving kind (`incident.resolved`,
 * `agent.online`) resolves it; any other event after a resolve reopens it. The first event opens it, or
 * records it resolved when that is all anyone ever sent. Severity: the highest level seen and the newest one;
 * title, host and agent: the newest given (a resolve's title describes the fix, not the incident).
 */
export function foldIncident(record: IncidentRecord | undefined, event: IncidentEvent): IncidentRecord {
  const resolving = RESOLVING_KINDS.has(event.kind);
  const state: IncidentState = resolving
    ? 'resolved'
    : record === undefined
      ? 'open'
      : record.state === 'resolved'
        ? 'reopened'
        : record.state;
  const higher = record === undefined || event.severityRank > record.severityRank;
  return {
    source: event.source,
    key: event.key,
    state,
    title: (resolving ? null : event.title) ?? record?.title ?? event.title,
    severityHighest: higher && event.severity !== null ? event.severity : (record?.severityHighest ?? null),
    severityRank: Math.max(event.severityRank, record?.severityRank ?? -1),
    severityCurrent: event.severity ?? record?.severityCurrent ?? null,
    host: event.host ?? record?.host ?? null,
    agent: event.agent ?? record?.agent ?? null,
    firstEventId: record?.firstEventId ?? event.eventId,
    firstAt: record?.firstAt ?? event.receivedAt,
    lastEventId: event.eventId,
    lastAt: event.receivedAt,
    events: (record?.events ?? 0) + 1,
    resolvedAt: resolving ? event.receivedAt : null,
    reopened: (record?.reopened ?? 0) + (state === 'reopened' && record?.state === 'resolved' ? 1 : 0),
  };
}
