import type { HttpBody, HttpRequestSpec } from '../rules.js';
import type { PathSegment } from '../source/locate-path.js';
import { compileHttpCaptures } from './compile-http-captures.js';
import { compileUrlTemplate } from './compile-url-template.js';
import type { TargetContext } from './target-context.js';
import { asString } from './target-yaml.js';

/** What one request is made of, at the top of an HTTP target or as one of its `requests:`. */
export interface HttpRequestYaml {
  readonly url?: unknown;
  readonly method?: unknown;
  readonly body?: unknown;
  readonly raw_body?: unknown;
  readonly content_type?: unknown;
  readonly capture?: unknown;
}

/** One request; `at` is where it sits in the target (nothing for the target's own url, method and body). */
export function compileHttpRequest(
  yaml: HttpRequestYaml,
  target: TargetContext,
  ...at: PathSegment[]
): HttpRequestSpec {
  const url = compileUrlTemplate(yaml.url, target, ...at, 'url');
  return {
    method: yaml.method === 'PUT' || yaml.method === 'PATCH' ? yaml.method : 'POST',
    url: url.url,
    urlTemplate: url.template,
    body: compileHttpBody(yaml, target, at),
    capture: compileHttpCaptures(yaml.capture, target, ...at, 'capture'),
  };
}

/** Body templates are not escaped: JSON encoding of the rendered tree does that job. */
function compileHttpBody(yaml: HttpRequestYaml, target: TargetContext, at: readonly PathSegment[]): HttpBody {
  if (yaml.body !== undefined && yaml.raw_body !== undefined) {
    target.error('conflicting_options', 'give body (sent as JSON) or raw_body, not both', [...at, 'raw_body'], 'key');
  }
  if (yaml.body !== undefined) return { kind: 'json', tree: target.tree(yaml.body, 'none', ...at, 'body') ?? {} };
  const template = target.template(yaml.raw_body, 'none', ...at, 'raw_body');
  const contentType = asString(yaml.content_type);
  if (template !== null && contentType !== undefined) return { kind: 'text', template, contentType };
  return { kind: 'forward' };
}
