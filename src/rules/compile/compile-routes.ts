import type { CompiledRoute } from '../rules.js';
import { compileRoute, type RouteCompileContext, type RouteSpec } from './compile-route.js';

/**
 * Compiles every route (as far as the schema accepted it) and reports duplicate names, which would make
 * the journal's record of matched routes ambiguous.
 */
export function compileRoutes(routes: readonly unknown[], context: RouteCompileContext): CompiledRoute[] {
  const firstLine = new Map<string, number>();
  routes.forEach((route, position) => {
    const name = (route as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return;
    const line = context.locate(['routes', position]).line;
    const first = firstLine.get(name);
    if (first === undefined) firstLine.set(name, line);
    else {
      context.sink.error(
        'duplicate_route_name',
        `duplicate route name "${name}" (first used on line ${first})`,
        context.locate(['routes', position, 'name']),
      );
    }
  });
  const compiled: CompiledRoute[] = [];
  routes.forEach((route, position) => {
    if (route === null || typeof route !== 'object' || Array.isArray(route)) return;
    const result = compileRoute(route as RouteSpec, position, context);
    if (result !== undefined) compiled.push(result);
  });
  return compiled;
}
