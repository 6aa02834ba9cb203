import type { DeliveryState } from '../delivery-state.js';

export interface DeliveryCount {
  readonly target: string;
  readonly state: DeliveryState;
  readonly count: number;
}

// Two subqueries, not `SELECT min(id), max(id)`: SQLite reads min or max off the index only when it is alone in
// its SELECT (https://www.sqlite.org/optoverview.html#minmax); together they scanned a million rows (60-90 ms).
export const ID_RANGE_SQL =
  'SELECT (SELECT min(id) FROM deliveries) AS first, (SELECT max(id) FROM deliveries) AS last';
export const COUNT_SLICE_SQL =
  'SELECT target, state, count(*) AS count FROM deliveries WHERE id > ? AND id <= ? GROUP BY target, state';

/** How many delivery ids one slice covers: a few milliseconds of the daemon's thread on the 2-core machine. */
export const COUNT_SLICE_IDS = 5000;

/**
 * Deliveries counted by target and state a slice of ids at a time, the event loop free between slices
 * (`setImmediate`): one statement over a million deliveries held the daemon's thread for half a second at
 * every scrape (issue 11). Each delivery is counted once, in the state it had when its slice was read; those
 * written after the count began are left to the next one.
 */
export async function countInSlices(
  idRange: () => Promise<{ readonly first: number | null; readonly last: number | null }>,
  countSlice: (after: number, through: number) => Promise<readonly DeliveryCount[]>,
  sliceIds = COUNT_SLICE_IDS,
): Promise<DeliveryCount[]> {
  const { first, last } = await idRange();
  const totals = new Map<string, DeliveryCount>();
  if (first === null || last === null) return [];
  for (let after = first - 1; after < last; after += sliceIds) {
    if (after >= first) await new Promise((resolve) => setImmediate(resolve));
    for (const row of await countSlice(after, Math.min(after + sliceIds, last))) {
      const key = `${row.target}\u0000${row.state}`;
      totals.set(key, { ...row, count: (totals.get(key)?.count ?? 0) + row.count });
    }
  }
  // The order of the one statement it replaces (ORDER BY target, state).
  return [...totals.values()].sort((a, b) => compare(a.target, b.target) || compare(a.state, b.state));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
