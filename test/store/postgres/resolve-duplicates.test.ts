import { describe, expect, it } from 'vitest';
import { resolveDuplicates } from '../../../src/store/postgres/resolve-duplicates.js';
import { DAY_MS, T0, makeIngestItem } from '../make-ingest-item.js';

describe('resolveDuplicates', () => {
  it('stores new items and names the stored original for a duplicate', () => {
    const fresh = makeIngestItem({ body: '{"a":1}' });
    const dup = makeIngestItem({ body: '{"b":1}' });
    const { results, fresh: stored } = resolveDuplicates([fresh, dup], [undefined, { id: 'evt_old', receivedAt: T0 }]);
    expect(results).toEqual([
      { duplicate: false, eventId: fresh.event.id, deliveries: 2 },
      { duplicate: true, eventId: 'evt_old', deliveries: 0 },
    ]);
    expect(stored).toEqual([fresh]);
  });

  it('detects a duplicate of an earlier item of the same group, per source', () => {
    const a = makeIngestItem({ body: '{"a":1}' });
    const otherSource = makeIngestItem({ body: '{"a":1}', source: 'edr' });
    const aAgain = makeIngestItem({ body: '{"a":1}' });
    const { results, fresh } = resolveDuplicates([a, otherSource, aAgain], [undefined, undefined, undefined]);
    expect(results.map((r) => [r.duplicate, r.eventId])).toEqual([
      [false, a.event.id],
      [false, otherSource.event.id],
      [true, a.event.id],
    ]);
    expect(fresh).toEqual([a, otherSource]);
  });

  it('takes the oldest candidate within each item’s own window, stored or in the group', () => {
    // The first item is outside the third's window; the stored match for the third is older than the second.
    const early = makeIngestItem({ body: '{"x":1}', receivedAt: T0 });
    const later = makeIngestItem({ body: '{"x":1}', receivedAt: T0 + 8 * DAY_MS });
    const last = makeIngestItem({ body: '{"x":1}', receivedAt: T0 + 9 * DAY_MS, dedupeWindowMs: 7 * DAY_MS });
    const storedForLast = { id: 'evt_stored', receivedAt: T0 + 3 * DAY_MS };
    const { results } = resolveDuplicates([early, later, last], [undefined, undefined, storedForLast]);
    expect(results.map((r) => [r.duplicate, r.eventId])).toEqual([
      [false, early.event.id],
      [false, later.event.id],
      [true, 'evt_stored'],
    ]);
  });

  it('breaks a tie on receipt time by id, as the SQL lookup does', () => {
    const item = makeIngestItem({ body: '{"t":1}' });
    const inGroup = { ...item, event: { ...item.event, id: 'evt_B' } };
    const again = makeIngestItem({ body: '{"t":1}' });
    const { results } = resolveDuplicates([inGroup, again], [undefined, { id: 'evt_A', receivedAt: T0 }]);
    expect(results[1]).toEqual({ duplicate: true, eventId: 'evt_A', deliveries: 0 });
  });
});
