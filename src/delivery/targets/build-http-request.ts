import type { HttpBody, HttpTargetSpec } from '../../rules/rules.js';
import { buildTemplateContext } from '../../templates/build-template-context.js';
import { renderTemplateTree } from '../../templates/render-template-tree.js';
import type { TemplateContext } from '../../templates/template.js';
import type { HttpAnswer } from '../http/create-http-sender.js';
import type { Outcome } from '../outcome.js';
import type { DeliveryJob } from '../target.js';
import { signBody } from './sign-body.js';

export interface HttpRequestParts {
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Issue 14: this attempt's URL and method, when they are not the target's (a templated URL, `requests:`). */
  readonly url?: URL | undefined;
  readonly method?: string | undefined;
  /** How much of the answer to read and keep (`capture:` reads more than the record's excerpt). */
  readonly keepBytes?: number | undefined;
  /** Issue 14: reads more from an answer classified delivered (`capture:`). */
  readonly delivered?: ((answer: HttpAnswer, outcome: Outcome) => Outcome) | undefined;
}

const USER_AGENT = 'switchyard';

/**
 * Headers and body of one attempt: our defaults, the target's static `headers` (the rules compiler refuses
 * the ones Switchyard sets), `auth`, then what every attempt carries: `Idempotency-Key` and the signature,
 * computed over the exact bytes sent. Throws `template_render` when a body template fails.
 */
export function buildHttpRequest(
  spec: HttpTargetSpec,
  job: DeliveryJob,
  bodySpec: HttpBody = spec.body,
  context: () => TemplateContext = () => buildTemplateContext(job),
): HttpRequestParts {
  const { body, contentType } = renderBody(bodySpec, job, context);
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, 'content-type': contentType };
  for (const [name, value] of Object.entries(spec.headers)) headers[name.toLowerCase()] = value;
  if (spec.auth?.kind === 'bearer') headers.authorization = `Bearer ${spec.auth.token}`;
  if (spec.auth?.kind === 'basic') {
    const pair = Buffer.from(`${spec.auth.username}:${spec.auth.password}`, 'utf8').toString('base64');
    headers.authorization = `Basic ${pair}`;
  }
  headers['idempotency-key'] = job.idempotencyKey;
  if (spec.signingSecret !== null) headers['x-switchyard-signature'] = signBody(body, spec.signingSecret);
  return { headers, body };
}

/** `context` is asked only by a template: a forwarded body needs none (issue 11: 3 µs per attempt to build). */
function renderBody(
  spec: HttpBody,
  job: DeliveryJob,
  context: () => TemplateContext,
): { body: Buffer; contentType: string } {
  switch (spec.kind) {
    case 'forward':
      return { body: job.event.body, contentType: 'application/json' };
    case 'json': {
      // The structure is ours and only leaves are rendered, so the JSON is well-formed whatever the event holds.
      const value = renderTemplateTree(spec.tree, context());
      return { body: Buffer.from(JSON.stringify(value), 'utf8'), contentType: 'application/json' };
    }
    case 'text':
      return {
        body: Buffer.from(spec.template.render(context()), 'utf8'),
        contentType: spec.contentType,
      };
  }
}
