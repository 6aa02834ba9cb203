import type { CompiledRoute, CompiledRules } from './rules.js';

// Built once per rules version and dropped with it.
const byRules = new WeakMap<CompiledRules, ReadonlyMap<string, CompiledRoute>>();

/** The routes of `rules` by name (names are unique): a lookup per matched route at ingest, not a search. */
export function routesByName(rules: CompiledRules): ReadonlyMap<string, CompiledRoute> {
  let byName = byRules.get(rules);
  if (byName === undefined) byRules.set(rules, (byName = new Map(rules.routes.map((route) => [route.name, route]))));
  return byName;
}
