import type pg from 'pg';
import { PRUNABLE_INCIDENTS_SQL } from '../incidents-prune-sql.js';
import type { PruneRequest } from '../prune-request.js';
import { numbered } from './numbered.js';

// One statement: the records and their links to events. An ingest folding one of them at the same moment
// (it holds the incident's advisory lock, not the row) writes it back as it folded it, with its new event, if
// the delete committed first; if the ingest's update did, the delete's recheck of the row's own `last_at`
// (READ COMMITTED re-reads an updated row) finds it active again and leaves it.
const PRUNE = `WITH gone AS (
    DELETE FROM incidents r WHERE (r.source, r.key) IN (${numbered(PRUNABLE_INCIDENTS_SQL)}) AND r.last_at < $1
    RETURNING r.source, r.key
  ), unlinked AS (
    DELETE FROM incident_events ie USING gone WHERE ie.source = gone.source AND ie.key = gone.key
  )
  SELECT count(*)::int AS n FROM gone`;

/** As SQLite's (prune-sqlite-incidents.ts), in the caller's prune transaction. Returns how many went. */
export async function prunePostgresIncidents(client: pg.PoolClient, request: PruneRequest): Promise<number> {
  const idleBefore = request.incidentsIdleBefore ?? Number.MIN_SAFE_INTEGER;
  const { rows } = await client.query<{ n: number }>(PRUNE, [request.eventsBefore, idleBefore, request.limit]);
  return rows[0]?.n ?? 0;
}
