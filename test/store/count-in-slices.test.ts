import { describe, expect, it } from 'vitest';
import { countInSlices, type DeliveryCount } from '../../src/store/sqlite/count-in-slices.js';
import type { DeliveryState } from '../../src/store/delivery-state.js';

/** Deliveries as (id, target, state), counted the way the SQLite statement counts a slice. */
function journal(rows: readonly [number, string, DeliveryState][]) {
  const slices: [number, number][] = [];
  const ids = rows.map(([id]) => id);
  return {
    slices,
    idRange: async () => ({ first: ids.length ? Math.min(...ids) : null, last: ids.length ? Math.max(...ids) : null }),
    countSlice: async (after: number, through: number): Promise<DeliveryCount[]> => {
      slices.push([after, through]);
      const counts = new Map<string, DeliveryCount>();
      for (const [id, target, state] of rows) {
        if (id <= after || id > through) continue;
        const key = `${target}/${state}`;
        counts.set(key, { target, state, count: (counts.get(key)?.count ?? 0) + 1 });
      }
      return [...counts.values()];
    },
  };
}

describe('countInSlices', () => {
  it('covers every id from the first to the last once, a slice at a time, and adds the slices up in order', async () => {
    const j = journal([
      [3, 'slack', 'delivered'],
      [4, 'mail', 'pending'],
      [7, 'slack', 'delivered'],
      [9, 'slack', 'dead'],
      [10, 'mail', 'pending'],
      [12, 'slack', 'delivered'],
    ]);
    expect(await countInSlices(j.idRange, j.countSlice, 4)).toEqual([
      { target: 'mail', state: 'pending', count: 2 },
      { target: 'slack', state: 'dead', count: 1 },
      { target: 'slack', state: 'delivered', count: 3 },
    ]);
    expect(j.slices).toEqual([
      [2, 6],
      [6, 10],
      [10, 12],
    ]);
  });

  it('makes one slice of a journal smaller than a slice, and none of an empty one', async () => {
    const small = journal([[5, 'slack', 'pending']]);
    expect(await countInSlices(small.idRange, small.countSlice, 4)).toEqual([
      { target: 'slack', state: 'pending', count: 1 },
    ]);
    expect(small.slices).toEqual([[4, 5]]);
    const empty = journal([]);
    expect(await countInSlices(empty.idRange, empty.countSlice, 4)).toEqual([]);
    expect(empty.slices).toEqual([]);
  });

  it('lets the event loop run between slices', async () => {
    const j = journal(Array.from({ length: 10 }, (_, i) => [i + 1, 'slack', 'delivered'] as const));
    const turns: number[] = [];
    const counting = countInSlices(
      j.idRange,
      async (after, through) => {
        turns.push(after);
        return j.countSlice(after, through);
      },
      3,
    );
    // Scheduled after the count began: it runs before the count's second slice, not after the last.
    let ranAfterSlices: number | undefined;
    setImmediate(() => (ranAfterSlices = turns.length));
    await counting;
    expect(turns).toEqual([0, 3, 6, 9]);
    expect(ranAfterSlices).toBe(1);
  });
});
