import type { Envelope } from '../ingest/envelope.js';
import { routesByName } from '../rules/routes-by-name.js';
import type { CompiledRules } from '../rules/rules.js';
import type { ThrottleCheck } from '../store/store.js';
import { lazyEnvelopeContext } from '../templates/envelope-context.js';
import type { TemplateContext } from '../templates/template.js';
import type { CompiledThrottle } from './compile-throttle.js';
import { normalizeKey } from './normalize-key.js';

/** Rendered keys are cut to this many characters: a key is an index entry, not a copy of the event. */
const MAX_KEY_LENGTH = 200;

/**
 * The throttle each delivery of an event falls under (parallel to `targets`), or undefined when none does:
 * the target's own `throttle:`, else that of the first matched route that sent the event to the target. The
 * key template sees the event as templates do; one that fails to render counts as the empty key, so a broken
 * key throttles together rather than letting a storm through. With `normalize_key` the key is normalised
 * before it is cut.
 */
export function throttleChecks(
  rules: CompiledRules,
  envelope: Envelope,
  matchedRoutes: readonly string[],
  targets: readonly string[],
  contextOf: () => TemplateContext = lazyEnvelopeContext(envelope),
): (ThrottleCheck | null)[] | undefined {
  const byName = routesByName(rules);
  let any = false;
  // One render per throttle and event, however many of its targets the event reaches.
  const keys = new Map<CompiledThrottle, string>();
  const checks = targets.map((target): ThrottleCheck | null => {
    let throttle: CompiledThrottle | undefined = rules.targets.get(target)?.throttle;
    for (const name of matchedRoutes) {
      if (throttle !== undefined) break;
      const route = byName.get(name);
      if (route?.to.includes(target)) throttle = route.throttle;
    }
    if (throttle === undefined) return null;
    any = true;
    let rendered = keys.get(throttle);
    if (rendered === undefined) keys.set(throttle, (rendered = render(throttle, contextOf())));
    // A route's throttle counts each of its targets apart: `max: 1` lets one event through to all of them.
    const by = throttle.by.startsWith('route:') ? `${throttle.by}|${target}` : throttle.by;
    return { by: throttle.by, key: `${by}|${rendered}`, windowMs: throttle.windowMs, max: throttle.max };
  });
  return any ? checks : undefined;
}

function render(throttle: CompiledThrottle, context: TemplateContext): string {
  if (throttle.key === null) return '';
  try {
    const rendered = throttle.key.render(context);
    return (throttle.normalizeKey ? normalizeKey(rendered) : rendered).slice(0, MAX_KEY_LENGTH);
  } catch {
    return '';
  }
}
