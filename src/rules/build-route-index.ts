import type { CompiledRoute, RouteIndex } from './rules.js';

/** How many event kinds' candidate lists are remembered; kinds come from the network, so this is capped. */
export const KIND_MEMO_LIMIT = 4096;

/**
 * Indexes routes by event kind so that routing an event costs time in the routes that can match its kind,
 * not in all routes. Exact names are looked up in a map; globs are grouped by their first segment when it
 * is literal (`agent.*` under "agent"), and only routes matching every kind (`*`, no `match.event`, a
 * glob starting with `*`) are tested for every kind. The merged list, in file order, is memoised per kind.
 * The memo is bounded and evicts the oldest entry: a flood of made-up kinds costs one small scan each,
 * never unbounded memory.
 */
export function buildRouteIndex(routes: readonly CompiledRoute[], memoLimit = KIND_MEMO_LIMIT): RouteIndex {
  const exact = new Map<string, CompiledRoute[]>();
  const byFirstSegment = new Map<string, CompiledRoute[]>();
  const anyKind: CompiledRoute[] = [];
  const add = (map: Map<string, CompiledRoute[]>, key: string, route: CompiledRoute) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [route]);
    else if (list[list.length - 1] !== route) list.push(route);
  };
  for (const route of routes) {
    if (route.events === null) {
      anyKind.push(route);
      continue;
    }
    for (const pattern of route.events) {
      const first = pattern.slice(0, indexOrEnd(pattern, '.'));
      if (!pattern.includes('*')) add(exact, pattern, route);
      else if (!first.includes('*')) add(byFirstSegment, first, route);
      else if (anyKind[anyKind.length - 1] !== route) anyKind.push(route);
    }
  }

  const compute = (kind: string): readonly CompiledRoute[] => {
    const found = new Set<CompiledRoute>(exact.get(kind));
    const globs = byFirstSegment.get(kind.slice(0, indexOrEnd(kind, '.'))) ?? [];
    for (const route of globs) if (route.kind.matchesKind(kind)) found.add(route);
    for (const route of anyKind) if (route.kind.matchesKind(kind)) found.add(route);
    return [...found].sort((a, b) => a.position - b.position);
  };

  const memo = new Map<string, readonly CompiledRoute[]>();
  return {
    candidatesFor: (kind) => {
      const hit = memo.get(kind);
      if (hit !== undefined) return hit;
      const candidates = Object.freeze(compute(kind));
      // Kinds come from senders; a long one is routed but not remembered, so the memo stays small in bytes too.
      if (kind.length > MAX_MEMO_KIND_LENGTH) return candidates;
      if (memo.size >= memoLimit) memo.delete(memo.keys().next().value as string);
      memo.set(kind, candidates);
      return candidates;
    },
  };
}

const MAX_MEMO_KIND_LENGTH = 200;

function indexOrEnd(text: string, search: string): number {
  const index = text.indexOf(search);
  return index < 0 ? text.length : index;
}
