import type { Envelope } from '../ingest/envelope.js';
import { routesByName } from '../rules/routes-by-name.js';
import type { CompiledRoute, CompiledRules } from '../rules/rules.js';
import type { GroupCheck } from '../store/digest-records.js';
import { lazyEnvelopeContext } from '../templates/envelope-context.js';
import type { TemplateContext } from '../templates/template.js';
import { normalizeKey } from './normalize-key.js';

/** Rendered keys are cut to this many characters, like throttle keys. */
const MAX_KEY_LENGTH = 200;

/**
 * The digest each delivery of an event is collected into (parallel to `targets`), or undefined when none is:
 * that of the first matched route with a `group:` that sent the event to the target. The key is the route and
 * the rendered `by` values (normalised with `normalize_key`); one that fails to render counts as empty (grouped
 * together, never lost).
 */
export function groupChecks(
  rules: CompiledRules,
  envelope: Envelope,
  matchedRoutes: readonly string[],
  targets: readonly string[],
  contextOf: () => TemplateContext = lazyEnvelopeContext(envelope),
): (GroupCheck | null)[] | undefined {
  const byName = routesByName(rules);
  const grouping: CompiledRoute[] = [];
  for (const name of matchedRoutes) {
    const route = byName.get(name);
    if (route?.group !== undefined) grouping.push(route);
  }
  if (grouping.length === 0) return undefined;
  const context = contextOf();
  const keys = new Map<CompiledRoute, string>();
  return targets.map((target) => {
    const route = grouping.find((candidate) => candidate.to.includes(target));
    const group = route?.group;
    if (route === undefined || group === undefined) return null;
    let key = keys.get(route);
    if (key === undefined) {
      const values = group.by.map((t) => render(t, context));
      const compared = group.normalizeKey ? values.map(normalizeKey) : values;
      keys.set(route, (key = `${route.name}|${compared.join('|')}`));
    }
    return {
      route: route.name,
      key: key.slice(0, MAX_KEY_LENGTH),
      waitMs: group.waitMs,
      intervalMs: group.intervalMs,
      maxEvents: group.maxEvents,
    };
  });
}

function render(template: { render(context: TemplateContext): string }, context: TemplateContext): string {
  try {
    return template.render(context);
  } catch {
    return '';
  }
}
