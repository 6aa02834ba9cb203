import type { EventSummary } from '../api/api-types.js';

/** The Events page's filters, as they appear in its URL and in GET /events (all of its filters). */
export const EVENT_FILTERS = ['kind', 'severity', 'source', 'since', 'until', 'q', 'target', 'state'] as const;
export type EventFilters = Partial<Record<(typeof EVENT_FILTERS)[number], string>>;

export function readEventFilters(query: URLSearchParams): EventFilters {
  const filters: EventFilters = {};
  for (const name of EVENT_FILTERS) {
    const value = query.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * Whether a live event belongs on the page as filtered: exact kind, severity and source, the title containing
 * `q` (case-insensitive, as the API reads it). With `until` set the page looks at the past: nothing live joins;
 * nor with `target` or `state`, which are about an event's deliveries, not in a live event's summary.
 */
export function matchesFilters(event: EventSummary, filters: EventFilters): boolean {
  if (filters.until !== undefined || filters.target !== undefined || filters.state !== undefined) return false;
  if (filters.kind !== undefined && event.kind !== filters.kind) return false;
  if (filters.severity !== undefined && event.severity !== filters.severity) return false;
  if (filters.source !== undefined && event.source !== filters.source) return false;
  if (filters.q !== undefined && !(event.title ?? '').toLowerCase().includes(filters.q.toLowerCase())) return false;
  return true;
}
