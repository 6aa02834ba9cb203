import type { Situation } from '../../lifecycle/choose-situation.js';
import type { HttpRequests, HttpTargetSpec } from '../rules.js';
import { compileCa } from './compile-ca.js';
import { compileHttpHeaders } from './compile-http-headers.js';
import { compileHttpRequest, type HttpRequestYaml } from './compile-http-request.js';
import { compileTargetBasics } from './compile-target-basics.js';
import type { TargetContext } from './target-context.js';
import { asString, type HttpTargetYaml } from './target-yaml.js';

/** Options that make the target's one request: with `requests:` each request has its own. */
const ONE_REQUEST = ['url', 'method', 'body', 'raw_body', 'content_type'] as const;

/** A generic HTTP endpoint: one request per event, or one per situation (`requests:`, issue 14). */
export function compileHttpTarget(yaml: HttpTargetYaml, target: TargetContext): HttpTargetSpec {
  const requests = compileHttpRequests(yaml, target);
  const single = compileHttpRequest(requests === null ? yaml : {}, target);
  return {
    ...compileTargetBasics(yaml, 'http', target),
    correlationKey: target.template(yaml.key, 'none', 'key'),
    url: single.url,
    urlTemplate: single.urlTemplate,
    requests,
    method: single.method,
    headers: compileHttpHeaders(yaml.headers, yaml.auth !== undefined, target),
    auth: compileHttpAuth(yaml, target),
    body: single.body,
    signingSecret: asString(yaml.sign?.secret) ?? null,
    ca: compileCa(yaml.ca, target, 'ca'),
  };
}

function compileHttpRequests(yaml: HttpTargetYaml, target: TargetContext): HttpRequests | null {
  const requests = yaml.requests;
  if (requests === undefined) {
    if (yaml.url === undefined) target.error('missing_option', 'needs url (or requests)', [], 'key');
    return null;
  }
  for (const option of ONE_REQUEST) {
    if (yaml[option] === undefined) continue;
    const message = `give ${option} inside each request of requests, not beside it`;
    target.error('conflicting_options', message, [option], 'key');
  }
  const compile = (situation: Situation) => {
    const request: unknown = requests[situation];
    if (typeof request !== 'object' || request === null) return null;
    return compileHttpRequest(request as HttpRequestYaml, target, 'requests', situation);
  };
  const [create, update, resolve] = [compile('create'), compile('update'), compile('resolve')];
  // The schema reports a missing create; the spec is not used then.
  return create === null ? null : { create, update, resolve };
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
