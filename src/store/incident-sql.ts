import { containsPattern } from './contains-pattern.js';
import type { IncidentFilter } from './incident-journal.js';

/** The record's columns as IncidentRecord names them; the same on both journals. */
export const INCIDENT_COLUMNS = `source, key, state, title, severity_highest AS "severityHighest",
  severity_current AS "severityCurrent", severity_rank AS "severityRank", host, agent,
  first_event_id AS "firstEventId", first_at AS "firstAt", last_event_id AS "lastEventId", last_at AS "lastAt",
  events, resolved_at AS "resolvedAt", reopened`;

/**
 * The listing's query with `?` placeholders (PostgreSQL numbers them), newest activity first through
 * incidents_by_activity. A target is matched through the deliveries of the incident's events still kept.
 */
export function incidentListSql(filter: IncidentFilter): { sql: string; params: (string | number)[] } {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  const add = (condition: string, ...values: (string | number)[]) => {
    conditions.push(condition);
    params.push(...values);
  };
  if (filter.state !== undefined) add('state = ?', filter.state);
  if (filter.severity !== undefined) add('lower(severity_current) = lower(?)', filter.severity);
  if (filter.host !== undefined) add('host = ?', filter.host);
  if (filter.source !== undefined) add('source = ?', filter.source);
  if (filter.key !== undefined) add('key = ?', filter.key);
  if (filter.text !== undefined) {
    const pattern = containsPattern(filter.text.toLowerCase());
    const like = (column: string) => `lower(coalesce(${column}, '')) LIKE ? ESCAPE '\\'`;
    add(`(${['title', 'key', 'host', 'agent'].map(like).join(' OR ')})`, pattern, pattern, pattern, pattern);
  }
  if (filter.target !== undefined) {
    add(
      `EXISTS (SELECT 1 FROM incident_events ie JOIN deliveries d ON d.event_id = ie.event_id
        WHERE ie.source = incidents.source AND ie.key = incidents.key AND d.target = ?)`,
      filter.target,
    );
  }
  const { before } = filter;
  if (before !== undefined) {
    add(
      '(last_at < ? OR (last_at = ? AND (source > ? OR (source = ? AND key > ?))))',
      before.lastAt,
      before.lastAt,
      before.source,
      before.source,
      before.key,
    );
  }
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  params.push(filter.limit);
  return {
    sql: `SELECT ${INCIDENT_COLUMNS} FROM incidents ${where} ORDER BY last_at DESC, source, key LIMIT ?`,
    params,
  };
}

/** How many of an incident's newest events its history shows: an agent flapping for months has thousands. */
export const HISTORY_EVENTS = 1000;

/** An incident's newest kept events, newest first (parameters: source, key, limit). */
export const INCIDENT_EVENTS_SQL = `SELECT e.id, e.kind, e.severity, e.title, e.received_at AS "receivedAt"
  FROM incident_events ie JOIN events e ON e.id = ie.event_id
  WHERE ie.source = ? AND ie.key = ? ORDER BY e.id DESC LIMIT ?`;
