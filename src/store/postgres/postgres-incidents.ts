import type pg from 'pg';
import { foldIncident } from '../../lifecycle/fold-incident.js';
import type { IncidentRecord } from '../../lifecycle/incident-record.js';
import type { IncidentEventRow, IncidentFilter, IncidentHistory } from '../incident-journal.js';
import { HISTORY_EVENTS, INCIDENT_COLUMNS, INCIDENT_EVENTS_SQL, incidentListSql } from '../incident-sql.js';
import { toStoredDelivery } from '../key-order-sql.js';
import type { IngestItem, StoredDelivery, StoredReference } from '../store.js';
import { numbered } from './numbered.js';
import { POSTGRES_COLUMNS } from './postgres-columns.js';
import { prepared } from './prepared.js';

const current = prepared(
  'incidents_current',
  `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE (source, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
);
// Both writes in one round trip: the group's events linked to their incidents, and the folded records.
const upsert = prepared(
  'incidents_upsert',
  `WITH linked AS (
     INSERT INTO incident_events (source, key, event_id) SELECT * FROM unnest($17::text[], $18::text[], $19::text[])
   )
   INSERT INTO incidents (source, key, state, title, severity_highest, severity_current, severity_rank, host, agent,
     first_event_id, first_at, last_event_id, last_at, events, resolved_at, reopened)
   SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
     $8::text[], $9::text[], $10::text[], $11::bigint[], $12::text[], $13::bigint[], $14::bigint[], $15::bigint[],
     $16::int[])
   ON CONFLICT (source, key) DO UPDATE SET state = excluded.state, title = excluded.title,
     severity_highest = excluded.severity_highest, severity_current = excluded.severity_current,
     severity_rank = excluded.severity_rank, host = excluded.host, agent = excluded.agent,
     first_event_id = excluded.first_event_id, first_at = excluded.first_at, last_event_id = excluded.last_event_id,
     last_at = excluded.last_at, events = excluded.events, resolved_at = excluded.resolved_at,
     reopened = excluded.reopened`,
);

/**
 * In the ingest transaction, after the group's events: their incidents folded further, in two statements
 * whatever the group's size. Instances fold the same incident one at a time: the group took an advisory lock
 * per incident with its BEGIN (dedupe-lock-keys.ts), so the records read here are the latest committed, and
 * no other instance writes them until this transaction ends.
 */
export async function recordPostgresIncidents(client: pg.PoolClient, items: readonly IngestItem[]): Promise<void> {
  const keyed = items.filter((item) => item.incident !== undefined);
  if (keyed.length === 0) return;
  const id = (source: string, key: string) => JSON.stringify([source, key]);
  const pairs = [...new Map(keyed.map((item) => [id(item.event.source, item.incident?.key ?? ''), item])).values()];
  const { rows } = await client.query<IncidentRecord>(
    current([pairs.map((item) => item.event.source), pairs.map((item) => item.incident?.key ?? '')]),
  );
  const records = new Map(rows.map((row) => [id(row.source, row.key), row]));
  for (const { event, incident } of keyed) {
    if (incident === undefined) continue;
    const at = id(event.source, incident.key);
    const folded = foldIncident(records.get(at), {
      ...incident,
      source: event.source,
      eventId: event.id,
      kind: event.kind,
      receivedAt: event.receivedAt,
      title: event.title ?? null,
    });
    records.set(at, folded);
  }
  const all = [...records.values()];
  const column = <K extends keyof IncidentRecord>(name: K) => all.map((record) => record[name]);
  await client.query(
    upsert([
      ...(
        [
          'source',
          'key',
          'state',
          'title',
          'severityHighest',
          'severityCurrent',
          'severityRank',
          'host',
          'agent',
          'firstEventId',
          'firstAt',
          'lastEventId',
          'lastAt',
          'events',
          'resolvedAt',
          'reopened',
        ] as const
      ).map(column),
      keyed.map((item) => item.event.source),
      keyed.map((item) => item.incident?.key ?? ''),
      keyed.map((item) => item.event.id),
    ]),
  );
}

/** The listing and the history on the shared journal. */
export function createPostgresIncidents(pool: pg.Pool) {
  return {
    async find(filter: IncidentFilter): Promise<IncidentRecord[]> {
      const { sql, params } = incidentListSql(filter);
      return (await pool.query<IncidentRecord>(numbered(sql), params)).rows;
    },
    async history(source: string, key: string): Promise<IncidentHistory> {
      const events = await pool.query<IncidentEventRow>(numbered(INCIDENT_EVENTS_SQL), [source, key, HISTORY_EVENTS]);
      const ids = events.rows.map((row) => row.id).reverse();
      const deliveries = await pool.query<StoredDelivery>(
        `SELECT ${POSTGRES_COLUMNS.listedDelivery} FROM deliveries WHERE event_id = ANY($1) ORDER BY id`,
        [ids],
      );
      const references = await pool.query<StoredReference>(
        `SELECT target, key, ref_values AS "values", updated_at AS "updatedAt" FROM key_references
         WHERE (target, key) IN (SELECT target, correlation_key FROM deliveries
           WHERE event_id = ANY($1) AND correlation_key IS NOT NULL)
         ORDER BY target, key`,
        [ids],
      );
      return {
        events: events.rows.reverse(),
        deliveries: deliveries.rows.map(toStoredDelivery),
        references: references.rows,
      };
    },
  };
}
