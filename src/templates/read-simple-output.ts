import type { TemplateContext } from './template.js';

/** `{{ a.b.c }}` and nothing else: plain identifiers, no filters, no brackets, no surrounding text. */
const SIMPLE_OUTPUT = /^\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*-?\}\}$/;
/** Names Liquid answers itself on arrays and strings (`list.size`): left to Liquid. */
const LIQUID_PROPERTIES: ReadonlySet<string> = new Set(['size', 'first', 'last']);

/**
 * For a template that only prints one variable (the usual throttle and group key, `{{ data.host }}`): a reader
 * that gives what Liquid would print for a string, number, boolean or missing value, and undefined for
 * anything else (an object, a list), which the caller renders with Liquid. Rendering through Liquid costs
 * about 5 µs per key at ingest (docs/decisions/noise-control-costs.md); reading the field costs well under one.
 * Undefined when the template is not of that shape.
 */
export function readSimpleOutput(source: string): ((context: TemplateContext) => string | undefined) | undefined {
  const path = SIMPLE_OUTPUT.exec(source.trim() === source ? source : '')?.[1]?.split('.');
  if (path === undefined || path.some((name) => LIQUID_PROPERTIES.has(name))) return undefined;
  return (context) => {
    let value: unknown = context;
    for (const name of path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      // Own properties only, as the engine is configured (ownPropertyOnly).
      value = Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : null;
      if (value === null || value === undefined) return '';
    }
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return undefined;
  };
}
