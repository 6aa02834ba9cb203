import { COUNTED_DELIVERIES_SQL } from '../counted-deliveries-sql.js';

// The statements count-in-slices.ts reads the journal through (SQLite).

// Only `max`, and alone in its SELECT: SQLite reads a min or a max off the primary key only then
// (https://www.sqlite.org/optoverview.html#minmax); `SELECT min(id), max(id)` scanned a million rows (62-96 ms).
export const LAST_DELIVERY_ID_SQL = 'SELECT max(id) FROM deliveries';

// Where the slice after `?` ends: the id of its `?`th delivery, walked on the primary key. By rows, not by a
// span of ids: pending and dead deliveries outlive the rest, so the ids left in a journal can be sparse.
export const SLICE_END_SQL = 'SELECT max(id) FROM (SELECT id FROM deliveries WHERE id > ? ORDER BY id LIMIT ?)';

export const COUNT_SLICE_SQL = `SELECT target, state, count(*) AS count FROM deliveries
  WHERE id > ? AND id <= ? AND ${COUNTED_DELIVERIES_SQL} GROUP BY target, state`;
