import type { EventFilter, EventSummary, Store } from '../../store/store.js';

/**
 * How many events a page with `q`, `severity` or `kind` reads at most (none of them is indexed): a rare title
 * is then looked for within the next SCAN_LIMIT events of the time window after the cursor, in tens of
 * milliseconds, not by reading a million rows for one page. When the scan stops there, the page may hold fewer
 * items than asked (even none) and still carry a cursor: the next page continues after the rows already read.
 */
export const SCAN_LIMIT = 20_000;

/** How far a search read when the scan bound ended the page before it was full. */
export interface ScanStop {
  /** Events of the window read (the bound). */
  readonly events: number;
  /** When the last of them was received: the search covered the events between the cursor and here. */
  readonly reachedAt: number;
}

/**
 * One page of events: `limit` of them, and whether the listing goes on (`after`: the position to resume
 * from, which is the last item, or the last row scanned when a bounded scan ended first, then also said in
 * `scanned`, so a reader can tell "nothing matched so far" from "nothing matches").
 */
export async function findEventsPage(
  store: Store,
  filter: EventFilter,
  limit: number,
  scanLimit = SCAN_LIMIT,
): Promise<{ items: EventSummary[]; after: string | undefined; scanned?: ScanStop }> {
  const bounded = filter.titleContains !== undefined || filter.severity !== undefined || filter.kind !== undefined;
  // The bound counts events of the window, whatever they hold: found on the primary key alone.
  const { afterId, order, since, until } = filter;
  const stopAtId = bounded ? await store.eventIdAt({ afterId, order, since, until }, scanLimit - 1) : undefined;
  // One more than asked tells whether another page exists without a count query.
  const found = await store.findEvents({ ...filter, stopAtId, limit: limit + 1 });
  const items = found.slice(0, limit);
  if (found.length > limit) return { items, after: items[items.length - 1]?.id };
  // Fewer matches than asked within the bound: the search goes on after the last row it read.
  if (stopAtId === undefined) return { items, after: undefined };
  const last = await store.getEvent(stopAtId);
  return { items, after: stopAtId, scanned: { events: scanLimit, reachedAt: last?.receivedAt ?? 0 } };
}
