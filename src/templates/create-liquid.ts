import { Liquid } from 'liquidjs';
import { encodeUrlValue } from './encode-url-value.js';
import { escapeSlack } from './escape-slack.js';
import { escapeTeamsMarkdown } from './escape-teams-markdown.js';
import { stringifyOutput } from './stringify-output.js';
import type { TemplateEscape } from './template.js';

/**
 * DoS bounds (https://liquidjs.com/tutorials/dos.html). Templates come from the operator, but they loop over
 * event content, which does not, and they render on the delivery path, synchronously.
 */
export const TEMPLATE_LIMITS = {
  /** Characters of template source per parse: far above any real template, far below the rules file's size. */
  parseLimit: 1_000_000,
  /** Milliseconds one render may block the event loop; real templates take well under a millisecond. */
  renderLimit: 200,
  /**
   * Liquid's allocation units (range sizes, characters built by filters) per render: room to escape or join
   * a few event-sized (1 MB) strings, not to loop a million times over them.
   */
  memoryLimit: 8_000_000,
  /** Characters one rendered template may produce; Liquid does not count what it writes out. */
  outputLimit: 8_000_000,
} as const;

/** Tags that read other templates by name; with no template store there is nothing they could read. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;

/**
 * A sandboxed Liquid engine for one escape mode: unknown filters are syntax errors (so `switchyard check` finds
 * them), only own properties are visible (no `constructor` or `__proto__` walking), and nothing is read from
 * disk: the tags that would are removed, so using them is a syntax error too.
 */
export function createLiquid(escape: TemplateEscape): Liquid {
  const liquid = new Liquid({
    strictFilters: true,
    ownPropertyOnly: true,
    templates: {},
    cache: false,
    parseLimit: TEMPLATE_LIMITS.parseLimit,
    renderLimit: TEMPLATE_LIMITS.renderLimit,
    memoryLimit: TEMPLATE_LIMITS.memoryLimit,
    ...(escape === 'html' ? { outputEscape: 'escape' as const } : {}),
    ...(escape === 'slack' ? { outputEscape: (value: unknown) => escapeSlack(stringifyOutput(value)) } : {}),
    ...(escape === 'teams' ? { outputEscape: (value: unknown) => escapeTeamsMarkdown(stringifyOutput(value)) } : {}),
    ...(escape === 'url' ? { outputEscape: (value: unknown) => encodeUrlValue(stringifyOutput(value)) } : {}),
  });
  for (const tag of FILE_TAGS) delete liquid.tags[tag];
  // In a URL, `| raw` would let an event value add `/`, `?` or `#`: without the filter, using it is a syntax error.
  if (escape === 'url') delete liquid.filters['raw'];
  return liquid;
}
