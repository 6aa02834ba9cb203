/** The console's pages, by path under the base (`/console/`). */
export type Route =
  | { readonly page: 'overview' }
  | { readonly page: 'events' }
  | { readonly page: 'event'; readonly id: string }
  | { readonly page: 'dead-letters' }
  | { readonly page: 'silences' }
  | { readonly page: 'rule-tester' }
  | { readonly page: 'not-found' };

export const BASE = '/console/';

/** The page for a location's pathname (`/console/events/evt_1` → the event evt_1). */
export function matchRoute(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname.replace(/^\/console\/?/, '');
  const parts = rest.split('/').filter((part) => part !== '');
  const [first, second, third] = parts;
  if (first === undefined) return { page: 'overview' };
  if (first === 'events' && second === undefined) return { page: 'events' };
  if (first === 'events' && second !== undefined && third === undefined) {
    return { page: 'event', id: safeDecode(second) };
  }
  if (parts.length === 1 && (first === 'dead-letters' || first === 'silences' || first === 'rule-tester')) {
    return { page: first };
  }
  return { page: 'not-found' };
}

/** The href of a page: `consoleHref('events/evt_1', {from: 'x'})` → `/console/events/evt_1?from=x`. */
export function consoleHref(path: string, query: Readonly<Record<string, string | undefined>> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
  const qs = search.toString();
  return `${BASE}${path.replace(/^\//, '')}${qs === '' ? '' : `?${qs}`}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
