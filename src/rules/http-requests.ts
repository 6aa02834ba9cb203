import type { Template, TemplateTree } from '../templates/template.js';

/** What an HTTP target sends: its body, and (issue 14) templated URLs, captures and one request per situation. */

export type HttpBody =
  /** No `body:` — the event envelope is forwarded byte for byte. */
  | { readonly kind: 'forward' }
  /** `body:` as a YAML structure; the JSON sent is always well-formed. */
  | { readonly kind: 'json'; readonly tree: TemplateTree }
  /** `raw_body:` with its own `content_type`. */
  | { readonly kind: 'text'; readonly template: Template; readonly contentType: string };

/**
 * A URL whose path or query holds templates (never its scheme, user, host or port: the compiler refuses that).
 * Each inserted value is percent-encoded; the path's segments are checked again after rendering.
 */
export interface UrlTemplate {
  /** The whole URL as one template, compiled with the `url` escape. */
  readonly template: Template;
  /** Characters of `scheme://user@host:port`, which hold no template: the rendered URL starts with them unchanged. */
  readonly authorityLength: number;
  /** One entry per path segment (`/a/{{ x }}` has two): whether a template writes into it, so it may not be empty. */
  readonly segments: readonly boolean[];
  /** The `ref.*` names the URL uses: without them it cannot be built (`ref.ticket` → `ticket`). */
  readonly refs: readonly string[];
}

/** `capture:` one value read from a successful answer, remembered for the key as `ref.<name>`. */
export type HttpCapture =
  /** `body.<path>`: a string, number or boolean in the JSON answer; digits select list items. */
  | { readonly name: string; readonly from: 'body'; readonly path: readonly string[] }
  /** `header.<name>`: a response header, the name lower-cased. */
  | { readonly name: string; readonly from: 'header'; readonly header: string };

/** One request an HTTP target can make. */
export interface HttpRequestSpec {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  /** As written (`${VAR}` expanded). */
  readonly url: string;
  /** Null when `url` holds no template. */
  readonly urlTemplate: UrlTemplate | null;
  readonly body: HttpBody;
  readonly capture: readonly HttpCapture[];
}

/** `requests:` what the target sends for each situation (choose-situation.ts); only `create` is required. */
export interface HttpRequests {
  readonly create: HttpRequestSpec;
  readonly update: HttpRequestSpec | null;
  readonly resolve: HttpRequestSpec | null;
}
