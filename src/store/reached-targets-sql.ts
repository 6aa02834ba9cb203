/**
 * The targets an incident reached: those with a delivery of one of its events that was not held back before it
 * was sent (`silenced`, `muted`, `suppressed`; a `grouped` one goes out in a digest) or `skipped` (never sent), so a follow-up goes only
 * where the incident was, or will be, seen. Parameters: source, key, then the journal's own exclusion of the
 * event being ingested (and, on PostgreSQL, the later events of its group). Indexed: incident_events by its
 * primary key, deliveries by (event_id, target).
 */
export const reachedTargetsSql = (exclude: string): string =>
  `SELECT DISTINCT d.target FROM incident_events ie JOIN deliveries d ON d.event_id = ie.event_id
   WHERE ie.source = ? AND ie.key = ? AND ${exclude}
     AND d.state NOT IN ('silenced', 'muted', 'suppressed', 'skipped')`;
