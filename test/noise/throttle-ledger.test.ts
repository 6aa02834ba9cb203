import { describe, expect, it } from 'vitest';
import { createThrottleLedger, type ThrottleSeed } from '../../src/noise/throttle-ledger.js';

const check = (key = 'k', max = 2, windowMs = 1_000) => ({ by: 'route:r', key, windowMs, max });

describe('throttle ledger', () => {
  it('lets `max` through per sliding window and counts the rest for the next one let through', () => {
    const ledger = createThrottleLedger(() => ({ sentAt: [], suppressed: 0 }));
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

  it('reads a key from the journal once, and again after clear() or a changed window', () => {
    const seeds: [string, number][] = [];
    const ledger = createThrottleLedger((c, since): ThrottleSeed => {
      seeds.push([c.key, since]);
      return { sentAt: [5_000].filter((t) => t > since), suppressed: 4 };
    });
    expect(ledger.decide(check('a', 1), 5_500)).toEqual({ suppressed: true, count: 0 });
    expect(ledger.decide(check('a', 1), 6_001)).toEqual({ suppressed: false, count: 5 });
    expect(ledger.decide(check('b', 1), 6_002)).toEqual({ suppressed: false, count: 4 });
    ledger.clear();
    expect(ledger.decide(check('a', 1), 6_003)).toEqual({ suppressed: false, count: 4 });
    expect(ledger.decide(check('a', 1, 2_000), 6_004)).toEqual({ suppressed: true, count: 0 });
    expect(seeds).toEqual([
      ['a', 4_500],
      ['b', 5_002],
      ['a', 5_003],
      ['a', 4_004],
    ]);
  });

  it('keeps at most `capacity` keys, forgetting the least recently used', () => {
    const seeded: string[] = [];
    const ledger = createThrottleLedger((c) => {
      seeded.push(c.key);
      return { sentAt: [], suppressed: 0 };
    }, 2);
    for (const key of ['a', 'b', 'a', 'c', 'a', 'b']) ledger.decide(check(key, 100), 0);
    expect(seeded).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps a long storm of let-through times bounded by max', () => {
    const ledger = createThrottleLedger(() => ({ sentAt: [], suppressed: 0 }));
    for (let t = 0; t < 10_000; t += 1) ledger.decide(check('k', 3, 1_000_000), t);
    // Still decides as a sliding window: the three let through were at 0, 1 and 2.
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_001)).toEqual({ suppressed: false, count: 9_997 });
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_002)).toEqual({ suppressed: false, count: 0 });
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_003)).toEqual({ suppressed: false, count: 0 });
    expect(ledger.decide(check('k', 3, 1_000_000), 1_000_004)).toEqual({ suppressed: true, count: 0 });
  });

  it('hands back each key decided about once per call, as the journal should hold it, even when evicted', () => {
    const ledger = createThrottleLedger(() => ({ sentAt: [], suppressed: 0 }), 1);
    ledger.decide(check('a', 1), 0);
    ledger.decide(check('a', 1), 10);
    ledger.decide(check('b', 1), 20); // evicts a, which must still be written
    expect(ledger.takeChanges()).toEqual(
      new Map([
        ['a', { sentAt: [0], suppressed: 1 }],
        ['b', { sentAt: [20], suppressed: 0 }],
      ]),
    );
    expect(ledger.takeChanges()).toEqual(new Map());
    ledger.decide(check('b', 1), 2_000);
    ledger.clear();
    expect(ledger.takeChanges()).toEqual(new Map());
  });
});
