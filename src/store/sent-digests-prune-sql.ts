/**
 * Retention of sent digests (issue 12), at the end of every prune pass on both journals, as for throttle keys:
 * a digest sent before the events cutoff whose own event (the `switchyard.digest` event) is gone. That event goes
 * like any other, once its delivery is finished; the events it covered went before it or with it (they were
 * received earlier, and their grouped deliveries became final when it was sent), and each keeps naming its
 * digest in `held_by`. Open
 * digests are never touched. A digest's `interval` counts from the last one sent for its key, so an interval
 * longer than the events' retention may let the next digest of a key go sooner (docs/noise.md).
 * Parameter: the events cutoff.
 */
export const PRUNE_SENT_DIGESTS_SQL = `DELETE FROM digests WHERE state = 'sent' AND sent_at < ?
  AND NOT EXISTS (SELECT 1 FROM events WHERE events.id = digests.event_id)`;
