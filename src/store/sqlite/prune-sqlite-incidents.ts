import type Database from 'better-sqlite3';
import { PRUNABLE_INCIDENTS_SQL } from '../incidents-prune-sql.js';
import type { PruneRequest } from '../prune-request.js';

/**
 * Retention of the incident records on the embedded journal, in the caller's prune transaction: each prunable
 * record with its links to events. Without an idle cutoff only resolved records go. Returns how many went.
 */
export function pruneSqliteIncidents(db: Database.Database): (request: PruneRequest) => number {
  const prunable = db.prepare<[number, number, number], { source: string; key: string }>(PRUNABLE_INCIDENTS_SQL);
  const unlink = db.prepare<[string, string]>('DELETE FROM incident_events WHERE source = ? AND key = ?');
  const remove = db.prepare<[string, string]>('DELETE FROM incidents WHERE source = ? AND key = ?');
  return (request) => {
    const idleBefore = request.incidentsIdleBefore ?? Number.MIN_SAFE_INTEGER;
    const gone = prunable.all(request.eventsBefore, idleBefore, request.limit);
    for (const { source, key } of gone) {
      unlink.run(source, key);
      remove.run(source, key);
    }
    return gone.length;
  };
}
