import type { EventFilter, EventSummary, Store } from '../../store/store.js';

/**
 * How many events a page with `q` or `severity` reads at most (neither is indexed): a rare title is then found
 * within the newest SCAN_LIMIT events after the cursor in a few tens of milliseconds, not by reading a million
 * rows for one page. When the scan stops there, the page may hold fewer items than asked (even none) and still
 * carry a cursor: the next page continues the search after the rows already read.
 */
export const SCAN_LIMIT = 20_000;

/**
 * One page of events: `limit` of them, and whether the listing goes on (`after`: the position to resume
 * from, which is the last item, or the last row scanned when a bounded scan ended first).
 */
export async function findEventsPage(
  store: Store,
  filter: EventFilter,
  limit: number,
): Promise<{ items: EventSummary[]; after: string | undefined }> {
  const bounded = filter.titleContains !== undefined || filter.severity !== undefined;
  const stopAtId = bounded ? await store.eventIdAt(filter, SCAN_LIMIT - 1) : undefined;
  // One more than asked tells whether another page exists without a count query.
  const found = await store.findEvents({ ...filter, stopAtId, limit: limit + 1 });
  const items = found.slice(0, limit);
  if (found.length > limit) return { items, after: items[items.length - 1]?.id };
  // Fewer matches than asked within the bound: the search goes on after the last row it read.
  return { items, after: stopAtId };
}
