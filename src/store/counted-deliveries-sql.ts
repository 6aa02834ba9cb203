/**
 * Which deliveries the `switchyard_deliveries` gauge counts, as a condition on `deliveries` both journals share
 * (`Store.countByTarget`): all but the grouped ones whose digest was sent. `grouped` then says what waits in
 * an open digest now; once sent, the digest's own delivery is counted instead. Open digests are few: the
 * subquery is read once per statement, not per delivery.
 */
export const COUNTED_DELIVERIES_SQL = `(state <> 'grouped' OR held_by IN (SELECT id FROM digests WHERE state = 'open'))`;
