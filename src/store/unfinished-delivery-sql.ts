/**
 * The retention rule, as one SQL condition both journals share (the prune batch and `prune --dry-run`): it holds
 * for a delivery `d` that keeps its event in the journal, because it is not final, or became final too
 * recently. A delivery is final, and since when, by its state (docs/operations.md#journal-retention):
 * - `delivered`, `skipped`, `muted`: at once (`updated_at`); nothing sends a skipped or muted delivery later.
 * - `dead`: at once, but kept until `deadBefore` rather than `eventsBefore`.
 * - `silenced`: once its silence has ended (`ends_at`) and, with `on_expiry: deliver_unresolved`, has released
 *   what it held (`released_at`): until then the releaser may still send it.
 * - `grouped`: once its digest was sent (`sent_at`): the digest is built from the events it holds at that moment.
 * - `suppressed`: once a later delivery of its throttle key was let through (its `created_at`): that one carries
 *   the count the suppressed one is part of.
 * - `pending`: never.
 * A silence or digest no longer in the journal releases nothing. Each fact only ever moves towards final, so a
 * batch that reads it a moment too early keeps the event, never loses it. Cost per delivery: one primary-key
 * lookup (silences, digests) or one probe of the let-through deliveries' index by throttle key.
 * `eventsBefore` and `deadBefore` are the placeholders of the cutoffs in the caller's dialect.
 */
export function unfinishedDeliverySql(eventsBefore: string, deadBefore: string): string {
  return `(d.state = 'pending' OR d.updated_at >= ${eventsBefore}
    OR (d.state = 'dead' AND d.updated_at >= ${deadBefore})
    OR (d.state = 'silenced' AND EXISTS (SELECT 1 FROM silences s WHERE s.id = d.held_by AND (s.ends_at >= ${eventsBefore}
      OR (s.on_expiry = 'deliver_unresolved' AND (s.released_at IS NULL OR s.released_at >= ${eventsBefore})))))
    OR (d.state = 'grouped' AND EXISTS (SELECT 1 FROM digests g WHERE g.id = d.held_by
      AND (g.state = 'open' OR g.sent_at >= ${eventsBefore})))
    OR (d.state = 'suppressed' AND NOT EXISTS (SELECT 1 FROM deliveries n WHERE n.throttle_key = d.throttle_key
      AND n.throttle_key IS NOT NULL AND n.state <> 'suppressed' AND n.created_at > d.created_at
      AND n.created_at < ${eventsBefore})))`;
}
