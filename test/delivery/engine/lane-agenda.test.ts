import { describe, expect, it } from 'vitest';
import { createLaneAgenda } from '../../../src/delivery/lane-agenda.js';

const names = (taken: { lanes: readonly { name: string }[] }) => taken.lanes.map((lane) => lane.name);

describe('lane agenda: which targets a delivery pass looks at', () => {
  it('starts with a full pass, then serves only lanes woken by name or due, and all again after the interval', () => {
    const agenda = createLaneAgenda(1_000);
    expect(agenda.take(['a', 'b', 'c'], 0)).toMatchObject({ full: true });
    agenda.settle('a', undefined); // nothing pending
    agenda.settle('b', 500); // a retry at 500
    agenda.settle('c', undefined);
    expect(agenda.nextPassAt(0)).toBe(500);

    agenda.mark(['c']);
    expect(agenda.nextPassAt(10)).toBe(10);
    const woken = agenda.take(['a', 'b', 'c'], 10);
    expect(woken).toEqual({ lanes: [{ name: 'c', woken: true }], full: false });
    expect(names(agenda.take(['a', 'b', 'c'], 500))).toEqual(['b']);
    expect(agenda.take(['a', 'b', 'c'], 1_000)).toMatchObject({ full: true });
    expect(names(agenda.take(['a', 'b', 'c'], 1_000))).toEqual(['b']); // b was not settled since: still due
  });

  it('a wake without names marks every lane; marks of unknown lanes do not keep it spinning', () => {
    const agenda = createLaneAgenda(1_000);
    agenda.take(['a', 'b'], 0);
    agenda.mark(['gone']);
    expect(agenda.take(['a', 'b'], 1).lanes).toEqual([]);
    expect(agenda.nextPassAt(1)).toBe(1_000);
    agenda.mark();
    expect(agenda.take(['a', 'b'], 2)).toMatchObject({ full: true, lanes: [{ name: 'a' }, { name: 'b' }] });
  });

  it('a mark made while a pass runs is kept for the next pass', () => {
    const agenda = createLaneAgenda(1_000);
    agenda.take(['a'], 0);
    agenda.mark(['a']);
    agenda.take(['a'], 1); // the pass serving a starts
    agenda.mark(['a']); // a commit lands meanwhile
    agenda.settle('a', undefined); // the pass ends: nothing was pending when it looked
    expect(agenda.nextPassAt(2)).toBe(2);
    expect(names(agenda.take(['a'], 2))).toEqual(['a']);
  });
});

it('a timer marks the lanes waiting for a time of their own, not the idle ones', () => {
  const agenda = createLaneAgenda(1_000);
  agenda.take(['a', 'b'], 0);
  agenda.settle('a', 900);
  agenda.settle('b', undefined);
  agenda.markDue();
  expect(agenda.take(['a', 'b'], 10).lanes).toEqual([{ name: 'a', woken: true }]);
});
