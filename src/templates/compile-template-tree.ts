import { createLiquid } from './create-liquid.js';
import { compileTemplateWith } from './compile-template.js';
import type { TemplateEscape, TemplateTree } from './template.js';

/**
 * Compiles every string leaf of a YAML structure (an HTTP body, a Slack message) as a template; numbers,
 * booleans and null stay as they are. Throws the first `template_syntax` error; the rules compiler walks
 * the tree itself when it needs every error located.
 */
export function compileTemplateTree(value: unknown, escape: TemplateEscape = 'none'): TemplateTree {
  const liquid = createLiquid(escape);
  const walk = (node: unknown): TemplateTree => {
    if (typeof node === 'string') return compileTemplateWith(liquid, node);
    if (typeof node === 'number' || typeof node === 'boolean' || node === null) return node;
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === 'object') {
      // fromEntries defines own properties, so a `__proto__` key stays a key instead of setting the prototype.
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    }
    throw new TypeError(
      `a template tree holds strings, numbers, booleans, null, arrays and objects, not ${typeof node}`,
    );
  };
  return walk(value);
}
