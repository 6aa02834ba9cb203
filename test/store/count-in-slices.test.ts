import { describe, expect, it } from 'vitest';
import { countInSlices } from '../../src/store/sqlite/count-in-slices.js';
import type { DeliveryCount, DeliveryState } from '../../src/store/delivery-state.js';

type Row = readonly [id: number, target: string, state: DeliveryState];

/** Deliveries as (id, target, state), sliced and counted the way the SQLite statements do it. */
function journal(rows: Row[]) {
  const slices: [number, number][] = [];
  const ids = () => rows.map(([id]) => id).sort((a, b) => a - b);
  return {
    rows,
    slices,
    lastId: async () => ids().at(-1) ?? null,
    countSlice: async (after: number, last: number, size: number) => {
      const end = ids()
        .filter((id) => id > after)
        .slice(0, size)
        .at(-1);
      if (end === undefined) return { counts: [], through: null };
      const through = Math.min(end, last);
      slices.push([after, through]);
      const counts = new Map<string, DeliveryCount>();
      for (const [id, target, state] of rows) {
        if (id <= after || id > through) continue;
        const key = `${target}/${state}`;
        counts.set(key, { target, state, count: (counts.get(key)?.count ?? 0) + 1 });
      }
      return { counts: [...counts.values()], through };
    },
  };
}

describe('countInSlices', () => {
  it('counts a slice of rows at a time, however sparse the ids, and adds the slices up in order', async () => {
    const j = journal([
      [3, 'slack', 'delivered'],
      [4, 'mail', 'pending'],
      [7, 'slack', 'delivered'],
      [9, 'slack', 'dead'],
      [10, 'mail', 'pending'],
      [12, 'slack', 'delivered'],
      [90_000, 'slack', 'dead'],
      [5_000_000, 'mail', 'pending'],
    ]);
    expect(await countInSlices(j.lastId, j.countSlice, 3)).toEqual([
      { target: 'mail', state: 'pending', count: 3 },
      { target: 'slack', state: 'dead', count: 2 },
      { target: 'slack', state: 'delivered', count: 3 },
    ]);
    expect(j.slices).toEqual([
      [0, 7],
      [7, 12],
      [12, 5_000_000],
    ]);
  });

  it('makes one slice of a journal smaller than a slice, and none of an empty one', async () => {
    const small = journal([[5, 'slack', 'pending']]);
    expect(await countInSlices(small.lastId, small.countSlice, 4)).toEqual([
      { target: 'slack', state: 'pending', count: 1 },
    ]);
    expect(small.slices).toEqual([[0, 5]]);
    const empty = journal([]);
    expect(await countInSlices(empty.lastId, empty.countSlice, 4)).toEqual([]);
    expect(empty.slices).toEqual([]);
  });

  it('leaves deliveries written after the count began to the next count, and ends where the journal ended', async () => {
    const j = journal([
      [1, 'slack', 'delivered'],
      [2, 'slack', 'delivered'],
      [3, 'slack', 'delivered'],
    ]);
    const counting = countInSlices(
      j.lastId,
      async (after, last, size) => {
        j.rows.push([10 + j.rows.length, 'slack', 'pending']);
        return j.countSlice(after, last, size);
      },
      2,
    );
    expect(await counting).toEqual([{ target: 'slack', state: 'delivered', count: 3 }]);
    expect(j.slices).toEqual([
      [0, 2],
      [2, 3],
    ]);
  });

  it('lets the event loop run between slices', async () => {
    const j = journal(Array.from({ length: 10 }, (_, i): Row => [i + 1, 'slack', 'delivered']));
    const turns: number[] = [];
    const counting = countInSlices(
      j.lastId,
      async (after, last, size) => {
        turns.push(after);
        return j.countSlice(after, last, size);
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
