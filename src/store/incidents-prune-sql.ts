/**
 * The incident records retention may remove (docs/incidents.md#retention), oldest activity first, at most a
 * batch's worth: those whose newest event is older than the events cutoff (the record outlives its events),
 * that are resolved or idle past `retention.incidents_idle`, and none of whose events is still in the journal: an
 * event goes only once every delivery of it is final (unfinished-delivery-sql.ts), so a record never leaves
 * before what it may still send, held deliveries included.
 * Parameters: the events cutoff, the idle cutoff, the limit (ms, ms, rows). Shared by both journals.
 */
export const PRUNABLE_INCIDENTS_SQL = `SELECT i.source, i.key FROM incidents i
  WHERE i.last_at < ? AND (i.state = 'resolved' OR i.last_at < ?)
    AND NOT EXISTS (SELECT 1 FROM incident_events ie JOIN events e ON e.id = ie.event_id
      WHERE ie.source = i.source AND ie.key = i.key)
  ORDER BY i.last_at LIMIT ?`;
