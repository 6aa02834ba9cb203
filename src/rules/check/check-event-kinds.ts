import { KNOWN_EVENT_KINDS, SWITCHYARD_EVENT_KINDS } from '../../ingest/envelope.js';
import { compileEventPattern } from '../compile/compile-event-pattern.js';
import type { Locator } from '../source/locate-path.js';
import type { ProblemSink } from '../source/problem-sink.js';
import type { CompiledRoute } from '../rules.js';
import { didYouMean } from './closest-name.js';

/**
 * Warns about event patterns that match none of the kinds the upstream documents (or Switchyard raises): usually a typo
 * (`incident.create`), sometimes a kind the upstream will add later, so a warning and not an error.
 */
export function checkEventKinds(routes: readonly CompiledRoute[], locate: Locator, sink: ProblemSink): void {
  const known = [...KNOWN_EVENT_KINDS, ...SWITCHYARD_EVENT_KINDS];
  for (const route of routes) {
    route.events?.forEach((pattern, index) => {
      const compiled = compileEventPattern(pattern);
      if (!compiled.ok || known.some((kind) => compiled.matches(kind))) return;
      const what =
        compiled.form === 'exact' ? `event kind "${pattern}" is not one` : `pattern "${pattern}" matches none`;
      const hint = compiled.form === 'exact' ? didYouMean(pattern, known) : '';
      sink.warning(
        'unknown_event_kind',
        `${what} of the kinds the upstream documents or Switchyard raises${hint} (${known.join(', ')})`,
        // For `event: name` (no list) the locator stops at the scalar, which is the right place too.
        locate(['routes', route.position, 'match', 'event', index]),
      );
    });
  }
}
