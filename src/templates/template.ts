/**
 * Templates are LiquidJS (https://liquidjs.com): sandboxed (no code execution, own properties only), with
 * familiar filters. They are compiled once when the rules load, so `switchyard check` reports syntax errors,
 * and rendered synchronously at send time.
 */

/** What a template sees: the envelope's top-level fields (`event`, `timestamp`, `data`, ...) and `switchyard`. */
export type TemplateContext = Readonly<Record<string, unknown>>;

/**
 * How rendered values are escaped: HTML e-mail bodies escape HTML, Slack text escapes `&`, `<` and `>`, Teams
 * card text escapes Markdown (`escapeTeamsMarkdown`), HTTP target URLs percent-encode each value
 * (`encodeUrlValue`) so it stays inside its path segment or query value.
 */
export type TemplateEscape = 'none' | 'html' | 'slack' | 'teams' | 'url';

export interface Template {
  /** The template text as written in the rules file. */
  readonly source: string;
  /** Throws a `SwitchyardError` coded `template_render` when rendering fails or exceeds its limits. */
  render(context: TemplateContext): string;
}

/**
 * A YAML structure whose string leaves are templates (an HTTP body, a Slack message): rendering produces a JSON
 * value of the same shape, so event content can never break or inject into the JSON around it.
 */
export type TemplateTree =
  Template | number | boolean | null | readonly TemplateTree[] | { readonly [key: string]: TemplateTree };
