/**
 * Retention of the console's events per minute (migration 8), run in every prune batch on both journals: the
 * counts of whole minutes before the events cutoff, at most `limit` rows (the batch's size) per batch, oldest
 * first through the primary key. Counted events still kept (an unfinished delivery) lose their count: the
 * overview charts 48 hours at most, far inside any retention limit. Parameters: minuteOf(the cutoff), then the limit.
 */
export const PRUNE_EVENT_COUNTS_SQL = `DELETE FROM event_counts WHERE (minute, kind, severity, writer) IN (
  SELECT minute, kind, severity, writer FROM event_counts WHERE minute < ? ORDER BY minute LIMIT ?)`;
