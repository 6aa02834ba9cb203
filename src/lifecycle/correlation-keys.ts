import type { Envelope } from '../ingest/envelope.js';
import type { CompiledRules } from '../rules/rules.js';
import { lazyEnvelopeContext } from '../templates/envelope-context.js';
import { defaultCorrelationKey } from './default-correlation-key.js';
import { usesLifecycle } from './uses-lifecycle.js';
import type { TemplateContext } from '../templates/template.js';

/** Rendered keys are cut to this many characters, as throttle keys are: a key is an index entry. */
const MAX_KEY_LENGTH = 200;

/**
 * Issue 14: each delivery's correlation key, parallel to `targets`, from its target's `key:` template (for a
 * lifecycle target without one, the incident or agent: default-correlation-key.ts), or undefined when no
 * target of the event has one (the common case costs one lookup per target). A key that fails
 * to render or renders empty is null: that delivery stands alone (no ordering), rather than queueing every such
 * event behind one another under a shared empty key.
 */
export function correlationKeys(
  rules: CompiledRules,
  envelope: Envelope,
  targets: readonly string[],
  contextOf: () => TemplateContext = lazyEnvelopeContext(envelope),
): (string | null)[] | undefined {
  let any = false;
  const keys = targets.map((target): string | null => {
    const spec = rules.targets.get(target);
    const template = spec?.correlationKey;
    if (template === null || template === undefined) {
      // A lifecycle target without `key:` gets the incident or the agent as its key.
      const fallback =
        spec !== undefined && usesLifecycle(spec) ? defaultCorrelationKey(envelope.event, envelope.data) : null;
      if (fallback === null) return null;
      any = true;
      return fallback.slice(0, MAX_KEY_LENGTH);
    }
    let rendered: string;
    try {
      rendered = template.render(contextOf()).slice(0, MAX_KEY_LENGTH);
    } catch {
      return null;
    }
    if (rendered === '') return null;
    any = true;
    return rendered;
  });
  return any ? keys : undefined;
}
