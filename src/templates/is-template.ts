import type { Template, TemplateTree } from './template.js';

/** Tells a compiled template from an object node: tree nodes never hold functions, templates always do. */
export function isTemplate(node: TemplateTree): node is Template {
  return typeof node === 'object' && node !== null && typeof (node as Partial<Template>).render === 'function';
}
