import type { Locator, PathSegment } from '../source/locate-path.js';
import { didYouMean } from './closest-name.js';
import type { ProblemSink } from '../source/problem-sink.js';

interface RulesShape {
  readonly routes?: unknown;
  readonly fallback?: unknown;
}

/**
 * Checks how routes and the fallback use targets: unknown names are errors (the event would be routed to
 * nothing), unused targets and a missing fallback are warnings, and so is a route that delivers nowhere
 * without stopping (it only keeps the fallback from applying).
 */
export function checkTargetReferences(
  document: RulesShape,
  targetNames: ReadonlySet<string>,
  locate: Locator,
  sink: ProblemSink,
): void {
  const used = new Set<string>();
  const defined = [...targetNames];
  const checkList = (value: unknown, path: PathSegment[]) => {
    // `to: name` is `to: [name]`; the locator stops at the scalar for the index it cannot follow.
    const list: unknown = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list)) return;
    list.forEach((name: unknown, index) => {
      if (typeof name !== 'string') return;
      used.add(name);
      if (!targetNames.has(name))
        sink.error('unknown_target', describeUnknownTarget(name, defined), locate([...path, index]));
    });
  };

  const routes = Array.isArray(document.routes) ? document.routes : [];
  routes.forEach((route: unknown, position) => {
    if (route === null || typeof route !== 'object') return;
    const { to, stop } = route as { to?: unknown; stop?: unknown };
    checkList(to, ['routes', position, 'to']);
    if (Array.isArray(to) && to.length === 0 && stop !== true) {
      sink.warning(
        'route_without_effect',
        'to is empty and stop is not true: this route delivers nowhere and only keeps the fallback from applying',
        locate(['routes', position, 'to']),
      );
    }
  });
  checkList(document.fallback, ['fallback']);

  for (const name of targetNames) {
    if (!used.has(name)) {
      sink.warning(
        'unused_target',
        `target "${name}" is not used by any route or the fallback`,
        locate(['targets', name], 'key'),
      );
    }
  }
  if (document.fallback === undefined) {
    sink.warning(
      'no_fallback',
      'no fallback: events that match no route are stored but delivered nowhere (write fallback: [] to say that is intended)',
      locate(['routes'], 'key'),
    );
  }
}

/** `unknown target "x": did you mean "y"? (defined: ...)`, also for a routing tests file's `expect`. */
export function describeUnknownTarget(name: string, defined: readonly string[]): string {
  const hint =
    defined.length === 0
      ? ' (no targets are defined)'
      : ` (defined: ${defined.slice(0, 10).join(', ')}${defined.length > 10 ? ', ...' : ''})`;
  return `unknown target "${name}"${didYouMean(name, defined)}${hint}`;
}
