import type { HttpBody, HttpTargetSpec } from '../rules.js';
import { checkUrl } from './check-url.js';
import { compileDeliveryPolicy } from './compile-delivery-policy.js';
import { compileHttpHeaders } from './compile-http-headers.js';
import type { TargetContext } from './target-context.js';
import { asBoolean, asString, type HttpTargetYaml } from './target-yaml.js';

/** A generic HTTP endpoint. Body templates are not escaped: JSON encoding of the rendered tree does that job. */
export function compileHttpTarget(yaml: HttpTargetYaml, target: TargetContext): HttpTargetSpec {
  const method = yaml.method === 'PUT' || yaml.method === 'PATCH' ? yaml.method : 'POST';
  return {
    name: target.name,
    type: 'http',
    policy: compileDeliveryPolicy(yaml, 'http', target),
    allowLinkLocal: asBoolean(yaml.allow_link_local) ?? false,
    url: checkUrl(yaml.url, target, 'url'),
    method,
    headers: compileHttpHeaders(yaml.headers, yaml.auth !== undefined, target),
    auth: compileHttpAuth(yaml, target),
    body: compileHttpBody(yaml, target),
    signingSecret: asString(yaml.sign?.secret) ?? null,
  };
}

function compileHttpAuth(yaml: HttpTargetYaml, target: TargetContext): HttpTargetSpec['auth'] {
  const bearer = asString(yaml.auth?.bearer);
  const username = asString(yaml.auth?.username);
  const password = asString(yaml.auth?.password);
  if (bearer !== undefined && username !== undefined) {
    target.error('conflicting_options', 'give bearer or username and password, not both', ['auth', 'username'], 'key');
  }
  if (bearer !== undefined) return { kind: 'bearer', token: bearer };
  if (username !== undefined && password !== undefined) return { kind: 'basic', username, password };
  return null;
}

function compileHttpBody(yaml: HttpTargetYaml, target: TargetContext): HttpBody {
  if (yaml.body !== undefined && yaml.raw_body !== undefined) {
    target.error('conflicting_options', 'give body (sent as JSON) or raw_body, not both', ['raw_body'], 'key');
  }
  if (yaml.body !== undefined) return { kind: 'json', tree: target.tree(yaml.body, 'none', 'body') ?? {} };
  const template = target.template(yaml.raw_body, 'none', 'raw_body');
  const contentType = asString(yaml.content_type);
  if (template !== null && contentType !== undefined) return { kind: 'text', template, contentType };
  return { kind: 'forward' };
}
