import { isTemplate } from './is-template.js';
import type { TemplateContext, TemplateTree } from './template.js';

/**
 * Renders each template leaf to a string and keeps the structure around it, so the JSON later made from the
 * result is well-formed whatever the event holds. Throws `template_render` like `Template.render`.
 */
export function renderTemplateTree(tree: TemplateTree, context: TemplateContext): unknown {
  if (isTemplate(tree)) return tree.render(context);
  if (typeof tree !== 'object' || tree === null) return tree;
  if (Array.isArray(tree)) return tree.map((child: TemplateTree) => renderTemplateTree(child, context));
  return Object.fromEntries(
    Object.entries(tree as { readonly [key: string]: TemplateTree }).map(([key, child]) => [
      key,
      renderTemplateTree(child, context),
    ]),
  );
}
