import { describe, expect, it } from 'vitest';
import { createTurnEnd } from '../../src/ingest/at-turn-end.js';

describe('createTurnEnd', () => {
  it("runs a turn's tasks in order after its ticks, and a task added by a task in the next turn", async () => {
    const atTurnEnd = createTurnEnd();
    const seen: string[] = [];
    atTurnEnd(() => {
      seen.push('first');
      atTurnEnd(() => seen.push('added by a task'));
    });
    atTurnEnd(() => seen.push('second'));
    await Promise.resolve();
    seen.push('tick');
    expect(seen).toEqual(['tick']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['tick', 'first', 'second']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['tick', 'first', 'second', 'added by a task']);
  });
});
