import { afterEach, describe, expect, it } from 'vitest';
import { findEventsPage } from '../../../src/admin/api/find-events-page.js';
import type { Store } from '../../../src/store/store.js';
import { makeIngestItem, T0 } from '../../store/make-ingest-item.js';
import { tempSqliteJournal } from '../../store/temp-sqlite-journal.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Ten events a second apart; titles "match" on events 1 and 8 only. */
async function seeded(): Promise<{ store: Store; ids: string[] }> {
  const journal = await tempSqliteJournal();
  const store = await journal.open();
  await store.migrate();
  close = async () => {
    await store.close();
    await journal.dispose();
  };
  const items = Array.from({ length: 10 }, (_, i) => {
    const made = makeIngestItem({ receivedAt: T0 + i * 1000 });
    return { ...made, event: { ...made.event, title: i === 1 || i === 8 ? `match ${i}` : `other ${i}` } };
  });
  await store.ingest(items);
  return { store, ids: items.map((item) => item.event.id) };
}

describe('findEventsPage', () => {
  it('scans at most scanLimit events per page for a text search, and goes on from where the scan stopped', async () => {
    const { store, ids } = await seeded();
    const filter = { titleContains: 'match', order: 'newest' as const };
    // Newest first: events 9..6 scanned, event 8 found; the cursor is the last row scanned (event 6).
    const first = await findEventsPage(store, filter, 5, 4);
    expect(first).toEqual({
      items: [expect.objectContaining({ id: ids[8] })],
      after: ids[6],
      scanned: { events: 4, reachedAt: T0 + 6000 },
    });
    const second = await findEventsPage(store, { ...filter, afterId: first.after }, 5, 4);
    expect(second).toEqual({ items: [], after: ids[2], scanned: { events: 4, reachedAt: T0 + 2000 } });
    const third = await findEventsPage(store, { ...filter, afterId: second.after }, 5, 4);
    expect(third).toStrictEqual({ items: [expect.objectContaining({ id: ids[1] })], after: undefined });
  });

  it('pages as before without a text, severity or kind filter, and when the page fills first', async () => {
    const { store, ids } = await seeded();
    expect(await findEventsPage(store, { order: 'oldest' }, 3, 4)).toMatchObject({ after: ids[2] });
    const full = await findEventsPage(store, { titleContains: 'o', order: 'oldest' }, 2, 4);
    // "other 0", "other 2" ("match 1" has no o).
    expect(full).toEqual({
      items: [expect.objectContaining({ id: ids[0] }), expect.objectContaining({ id: ids[2] })],
      after: ids[2],
    });
  });
});
