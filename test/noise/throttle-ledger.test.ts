import { describe, expect, it } from 'vitest';
import { createThrottleLedger, type ThrottleSeed } from '../../src/noise/throttle-ledger.js';

const check = (key = 'k', max = 2, windowMs = 1_000) => ({ by: 'route:r', key, windowMs, max });
const empty = (): ThrottleSeed => ({ sentAt: [], suppressed: 0 });

describe('throttle ledger', () => {
  it('lets `max` through per sliding window and counts the rest for the next one let through', () => {
    const ledger = createThrottleLedger(empty);
    const at = [0, 100, 200, 300, 999, 1_000, 1_101, 1_150];
    expect(at.map((t) => ledger.decide(check(), t))).toEqual([
      { suppressed: false, count: 0 },
      { suppressed: false, count: 0 },
      { suppressed: true, count: 0 },
      { suppressed: true, count: 0 },
      { suppressed: true, count: 0 },
      { suppressed: false, count: 3 }, // 0 left the window (it holds times after 1,000 - 1,000)
      { suppressed: false, count: 0 }, // 100 left too
      { suppressed: true, count: 0 },
    ]);
  });

  it('reads a key from the journal once, and again after clear()', () => {
    const seeded: string[] = [];
    const ledger = createThrottleLedger((key) => {
      seeded.push(key);
      return { sentAt: [4_000, 5_000], suppressed: 4 };
    });
    expect(ledger.decide(check('a', 1), 5_500)).toEqual({ suppressed: true, count: 0 });
    expect(ledger.decide(check('a', 1), 6_001)).toEqual({ suppressed: false, count: 5 });
    expect(ledger.decide(check('b', 1), 6_002)).toEqual({ suppressed: false, count: 4 });
    ledger.clear();
    // A longer window (a reload) counts what the journal holds for it.
    expect(ledger.decide(check('a', 2, 5_000), 5_700)).toEqual({ suppressed: true, count: 0 });
    expect(seeded).toEqual(['a', 'b', 'a']);
  });

  it('hands back each changed key once, trimmed to what can still count, even after it left memory', () => {
    const seeded: string[] = [];
    const ledger = createThrottleLedger((key) => {
      seeded.push(key);
      return empty();
    }, 1);
    ledger.decide(check('a', 1), 0);
    ledger.decide(check('a', 1), 10);
    ledger.decide(check('b', 1), 20); // a leaves memory but must still be written, and found again
    ledger.decide(check('a', 1), 30);
    ledger.touch('c');
    expect(ledger.takeChanges()).toEqual(
      new Map([
        ['a', { sentAt: [0], suppressed: 2 }],
        ['b', { sentAt: [20], suppressed: 0 }],
        ['c', { sentAt: [], suppressed: 0 }],
      ]),
    );
    expect(seeded).toEqual(['a', 'b', 'c']);
    expect(ledger.takeChanges()).toEqual(new Map());
    ledger.decide(check('b', 3), 2_000);
    expect(ledger.takeChanges().get('b')).toEqual({ sentAt: [2_000], suppressed: 0 });
    ledger.decide(check('b', 1), 2_001);
    ledger.clear();
    expect(ledger.takeChanges()).toEqual(new Map());
  });

  it('keeps a long storm of let-through times bounded by max', () => {
    const ledger = createThrottleLedger(empty);
    for (let t = 0; t < 10_000; t += 1) ledger.decide(check('k', 3, 1_000_000), t);
    expect(ledger.takeChanges().get('k')).toEqual({ sentAt: [0, 1, 2], suppressed: 9_997 });
    // Still decides as a sliding window: the three let through were at 0, 1 and 2.
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_001)).toEqual({ suppressed: false, count: 9_997 });
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_002)).toEqual({ suppressed: false, count: 0 });
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_003)).toEqual({ suppressed: false, count: 0 });
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_004)).toEqual({ suppressed: true, count: 0 });
  });
});
