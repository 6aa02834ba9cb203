import { compileEventPattern } from '../compile/compile-event-pattern.js';
import type { Locator } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';
import type { CompiledRoute } from '../rules.js';

/**
 * Warns about routes that can never be evaluated: after a `stop: true` route without conditions that
 * matches every event, or when each event kind a route names is already caught by such stop routes.
 * Only unconditional stop routes count; deciding overlap of severity or field conditions is not attempted.
 */
export function findUnreachableRoutes(routes: readonly CompiledRoute[], locate: Locator, sink: ProblemSink): void {
  let catchAll: CompiledRoute | undefined;
  const exactStops = new Map<string, CompiledRoute>();
  const globStops: { pattern: string; matches: (kind: string) => boolean; route: CompiledRoute }[] = [];
  const coveredBy = (pattern: string): CompiledRoute | undefined =>
    exactStops.get(pattern) ??
    globStops.find((stop) => stop.pattern === pattern || (!pattern.includes('*') && stop.matches(pattern)))?.route;

  for (const route of routes) {
    const at = () => locate(['routes', route.position, 'name']);
    if (catchAll !== undefined) {
      sink.warning(
        'unreachable_route',
        `route "${route.name}" is never evaluated: route "${catchAll.name}" (line ${catchAll.line}) matches every event and stops`,
        at(),
      );
      continue;
    }
    if (route.events !== null) {
      const stoppers = route.events.map(coveredBy);
      if (stoppers.every((stopper) => stopper !== undefined)) {
        const names = [...new Set(stoppers.map((stopper) => `"${stopper?.name}"`))].join(', ');
        sink.warning(
          'unreachable_route',
          `route "${route.name}" is never evaluated: every event kind it names is caught earlier by stop route ${names}`,
          at(),
        );
      }
    }
    // A route active only at times does not catch everything.
    if (!route.stop || route.conditions.length > 0 || route.activeDuring !== undefined) continue;
    if (route.events === null) {
      catchAll = route;
      continue;
    }
    for (const pattern of route.events) {
      const compiled = compileEventPattern(pattern);
      if (!compiled.ok) continue;
      if (compiled.form === 'exact') {
        if (!exactStops.has(pattern)) exactStops.set(pattern, route);
      } else globStops.push({ pattern, matches: compiled.matches, route });
    }
  }
}
