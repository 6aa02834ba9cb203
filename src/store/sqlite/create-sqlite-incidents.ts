import type Database from 'better-sqlite3';
import { foldIncident } from '../../lifecycle/fold-incident.js';
import type { IncidentRecord } from '../../lifecycle/incident-record.js';
import type { IncidentFilter, IncidentHistory, IncidentEventRow } from '../incident-journal.js';
import { HISTORY_EVENTS, INCIDENT_COLUMNS, INCIDENT_EVENTS_SQL, incidentListSql } from '../incident-sql.js';
import { toStoredDelivery } from '../key-order-sql.js';
import { reachedTargetsSql } from '../reached-targets-sql.js';
import type { IngestItem, StoredDelivery } from '../store.js';
import { LISTED_COLUMNS } from './prepare-sqlite-statements.js';

/**
 * The incident records on the embedded journal: folded in the ingest transaction (one writer holds the
 * journal, so read, fold and write need no more), read by the listing and the history.
 */
export function createSqliteIncidents(db: Database.Database) {
  const read = db.prepare<[source: string, key: string], IncidentRecord>(
    `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE source = ? AND key = ?`,
  );
  const write = db.prepare<[IncidentRecord]>(
    `INSERT OR REPLACE INTO incidents (source, key, state, title, severity_highest, severity_current, severity_rank,
       host, agent, first_event_id, first_at, last_event_id, last_at, events, resolved_at, reopened)
     VALUES (@source, @key, @state, @title, @severityHighest, @severityCurrent, @severityRank, @host, @agent,
       @firstEventId, @firstAt, @lastEventId, @lastAt, @events, @resolvedAt, @reopened)`,
  );
  const link = db.prepare<[source: string, key: string, eventId: string]>(
    'INSERT INTO incident_events (source, key, event_id) VALUES (?, ?, ?)',
  );
  const events = db.prepare<[source: string, key: string, limit: number], IncidentEventRow>(INCIDENT_EVENTS_SQL);
  const deliveries = db.prepare<[ids: string], StoredDelivery>(
    `SELECT ${LISTED_COLUMNS} FROM deliveries WHERE event_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  );
  const references = db.prepare<[ids: string], { target: string; key: string; values: string; updatedAt: number }>(
    `SELECT target, key, ref_values AS "values", updated_at AS updatedAt FROM key_references
     WHERE (target, key) IN (SELECT target, correlation_key FROM deliveries
       WHERE event_id IN (SELECT value FROM json_each(?)) AND correlation_key IS NOT NULL)
     ORDER BY target, key`,
  );
  const reached = db
    .prepare<[source: string, key: string, eventId: string], string>(reachedTargetsSql('d.event_id <> ?'))
    .pluck();

  return {
    /** In the caller's transaction, before the event's follow-ups: the targets its incident reached so far. */
    reached(source: string, key: string, eventId: string): Set<string> {
      return new Set(reached.all(source, key, eventId));
    },
    /** In the caller's transaction, after the event's row: its incident folded one event further. */
    record(item: IngestItem): void {
      const facts = item.incident;
      if (facts === undefined) return;
      const { event } = item;
      const before = read.get(event.source, facts.key);
      const after = foldIncident(before, {
        ...facts,
        source: event.source,
        eventId: event.id,
        kind: event.kind,
        receivedAt: event.receivedAt,
        title: event.title ?? null,
      });
      write.run(after);
      link.run(event.source, facts.key, event.id);
    },
    find(filter: IncidentFilter): IncidentRecord[] {
      const { sql, params } = incidentListSql(filter);
      return db.prepare<unknown[], IncidentRecord>(sql).all(...params);
    },
    history(source: string, key: string): IncidentHistory {
      const rows = events.all(source, key, HISTORY_EVENTS).reverse();
      const ids = JSON.stringify(rows.map((row) => row.id));
      return {
        events: rows,
        deliveries: deliveries.all(ids).map(toStoredDelivery),
        references: references
          .all(ids)
          .map((row) => ({ ...row, values: JSON.parse(row.values) as Record<string, string> })),
      };
    },
  };
}

export type SqliteIncidents = ReturnType<typeof createSqliteIncidents>;
