import type { DeliveryCount } from '../delivery-state.js';

/** How many deliveries one slice counts: about 2 ms of the daemon's thread on the 2-core machine (at most 5). */
export const COUNT_SLICE_ROWS = 5000;

/**
 * Deliveries counted by target and state a slice at a time, the event loop free between slices
 * (`setImmediate`): one statement over a million deliveries held the daemon's thread for over half a second at
 * every scrape (issue 11). `countSlice` counts the next `rows` deliveries after `after`, up to `last`, and says
 * the id it stopped at (null: none left). Each delivery is counted once, in the state it had when its slice was
 * read; those written after the count began (ids above `last`) are left to the next count.
 */
export async function countInSlices(
  lastId: () => Promise<number | null>,
  countSlice: (
    after: number,
    last: number,
    rows: number,
  ) => Promise<{ readonly counts: readonly DeliveryCount[]; readonly through: number | null }>,
  rows = COUNT_SLICE_ROWS,
): Promise<DeliveryCount[]> {
  const last = await lastId();
  const totals = new Map<string, DeliveryCount>();
  for (let after = 0; last !== null && after < last;) {
    if (after > 0) await new Promise((resolve) => setImmediate(resolve));
    const slice = await countSlice(after, last, rows);
    if (slice.through === null) break;
    for (const row of slice.counts) {
      const key = `${row.target}\u0000${row.state}`;
      totals.set(key, { ...row, count: (totals.get(key)?.count ?? 0) + row.count });
    }
    after = slice.through;
  }
  // The order of the one statement it replaces (ORDER BY target, state); names are ASCII (the rules schema).
  return [...totals.values()].sort((a, b) => compare(a.target, b.target) || compare(a.state, b.state));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
