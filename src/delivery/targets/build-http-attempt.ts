import { chooseSituation, type Situation } from '../../lifecycle/choose-situation.js';
import { FOLLOWING_KINDS } from '../../lifecycle/follow-targets.js';
import type { HttpRequestSpec, HttpTargetSpec } from '../../rules/rules.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { buildTemplateContext } from '../../templates/build-template-context.js';
import type { TemplateContext } from '../../templates/template.js';
import type { HttpAnswer } from '../http/create-http-sender.js';
import type { Outcome } from '../outcome.js';
import type { DeliveryJob } from '../target.js';
import { buildHttpRequest, type HttpRequestParts } from './build-http-request.js';
import { chooseHttpRequest } from './choose-http-request.js';
import { readCaptures } from './read-captures.js';
import { renderUrl } from './render-url.js';

/**
 * One attempt of an HTTP target (issue 14): the request for the delivery's situation, its URL rendered, its
 * captures read from the answer; or, when nothing is to be sent, the outcome. Templates see the event, `ref`
 * (the key's remembered values, empty before any) and `situation`. Throws `template_render`.
 */
export function buildHttpAttempt(spec: HttpTargetSpec, job: DeliveryJob): HttpRequestParts | Outcome {
  const references = job.references ?? null;
  const situation = chooseSituation(job.event.kind, references);
  const { name, request } = chooseHttpRequest(spec, situation);
  if (request === null) {
    return { kind: 'delivered', detail: `not sent: the target has no ${name} request (requests.${name})` };
  }
  const missing = request.urlTemplate?.refs.filter((ref) => references?.[ref] === undefined) ?? [];
  if (missing.length > 0) {
    const known = Object.keys(references ?? {});
    const has =
      known.length === 0 ? 'nothing was captured for this key yet' : `the key has only ref.${known.join(', ref.')}`;
    return { kind: 'permanent', error: `the ${name} request's URL needs ref.${missing.join(', ref.')}, and ${has}` };
  }
  // Built only when a template asks (a body or URL template); a forwarding target needs none.
  let context: TemplateContext | undefined;
  const contextOf = (): TemplateContext =>
    (context ??= { ...buildTemplateContext(job), ref: references ?? {}, situation });
  const parts = buildHttpRequest(spec, job, request.body, contextOf);
  const note = sentAsCreate(spec, job, situation);
  return {
    ...parts,
    url: attemptUrl(spec, request, contextOf),
    method: request.method,
    delivered:
      request.capture.length === 0 && note === undefined
        ? undefined
        : (answer, outcome) => noted(request.capture.length === 0 ? outcome : captured(request, answer, outcome), note),
  };
}

/**
 * An update that opens the ticket (its create was never delivered, nothing was captured: the incident rose onto
 * this target's route with it, or its create went elsewhere) says so in its attempt record.
 */
function sentAsCreate(spec: HttpTargetSpec, job: DeliveryJob, situation: Situation): string | undefined {
  if (situation !== 'create' || !FOLLOWING_KINDS.has(job.event.kind)) return undefined;
  if (spec.requests === undefined || spec.requests === null) return undefined;
  const key = job.correlationKey ?? null;
  return key === null ? undefined : `sent as create: nothing was delivered or captured for key ${key} yet`;
}

function noted(outcome: Outcome, note: string | undefined): Outcome {
  if (note === undefined || outcome.kind !== 'delivered') return outcome;
  return { ...outcome, detail: [outcome.detail ?? '', note].filter((part) => part !== '').join('; ') };
}

/** Undefined for the one static URL of a target without `requests:`, which the target parsed once. */
function attemptUrl(spec: HttpTargetSpec, request: HttpRequestSpec, context: () => TemplateContext): URL | undefined {
  if (request.urlTemplate !== null) return renderUrl(request.urlTemplate, context());
  if (spec.requests === undefined || spec.requests === null) return undefined;
  if (!URL.canParse(request.url)) throw new SwitchyardError('invalid_url', 'the request URL is not a valid URL');
  return new URL(request.url);
}

/** A capture the answer lacks does not undo the delivery (the ticket exists); the detail names it. */
function captured(request: HttpRequestSpec, answer: HttpAnswer, outcome: Outcome): Outcome {
  if (outcome.kind !== 'delivered') return outcome;
  const reading = readCaptures(request.capture, answer);
  const note = reading.missing.length === 0 ? '' : `capture not in the answer: ${reading.missing.join(', ')}`;
  const detail = [outcome.detail ?? '', note].filter((part) => part !== '').join('; ');
  return { ...outcome, detail, captured: reading.captured };
}
