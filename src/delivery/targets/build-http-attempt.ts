import { chooseSituation, type Situation } from '../../lifecycle/choose-situation.js';
import { FOLLOWING_KINDS } from '../../lifecycle/follow-targets.js';
import type { HttpRequestSpec, HttpTargetSpec } from '../../rules/rules.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { buildTemplateContext } from '../../templates/build-template-context.js';
import type { TemplateContext } from '../../templates/template.js';
import { describeCaptureMiss } from '../../lifecycle/capture-miss.js';
import { ANSWER_BOUND_BYTES, type HttpAnswer } from '../http/create-http-sender.js';
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
  if (situation === 'resolve' && references === null && hasLifecycle(spec, job) && job.replayed !== true) {
    // Dead-lettering it would block the key's later events (a new incident of the same id) for nothing. A
    // replayed resolve was delivered once (which cleared the key's references): the operator asked for it again.
    return { kind: 'skipped', error: NOTHING_TO_RESOLVE };
  }
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
  const notes = [replayedCreate(spec, situation, job), sentAsCreate(spec, job, situation)].filter(
    (n) => n !== undefined,
  );
  const note = notes.length === 0 ? undefined : notes.join('; ');
  return {
    ...parts,
    url: attemptUrl(spec, request, contextOf),
    method: request.method,
    // A capture reads the whole answer (up to the sender's bound), not the excerpt kept for the record.
    keepBytes: request.capture.some((capture) => capture.from === 'body') ? ANSWER_BOUND_BYTES : undefined,
    delivered: (answer, outcome) => captured(request, answer, outcome, note),
  };
}

/** A delivered create sent again opens a second ticket unless the receiver deduplicates: its record says so. */
function replayedCreate(spec: HttpTargetSpec, situation: string, job: DeliveryJob): string | undefined {
  const lifecycle = spec.requests !== undefined && spec.requests !== null;
  return lifecycle && situation === 'create' && job.replayed === true ? REPLAYED_CREATE : undefined;
}

const REPLAYED_CREATE = 'replay of a delivered delivery, sent as a create (requests.create)';

/** The `last_error` of a resolve skipped by the engine; `switchyard_deliveries_skipped_total` counts them. */
export const NOTHING_TO_RESOLVE =
  'skipped: nothing to resolve (no create was delivered for this key, nothing captured)';

/** A target with per-situation requests, for a delivery with a correlation key. */
function hasLifecycle(spec: HttpTargetSpec, job: DeliveryJob): boolean {
  return spec.requests !== undefined && spec.requests !== null && job.correlationKey !== null;
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

/** Undefined for the one static URL of a target without `requests:`, which the target parsed once. */
function attemptUrl(spec: HttpTargetSpec, request: HttpRequestSpec, context: () => TemplateContext): URL | undefined {
  if (request.urlTemplate !== null) return renderUrl(request.urlTemplate, context());
  if (spec.requests === undefined || spec.requests === null) return undefined;
  if (!URL.canParse(request.url)) throw new SwitchyardError('invalid_url', 'the request URL is not a valid URL');
  return new URL(request.url);
}

/**
 * A capture the answer lacks does not undo the delivery (the ticket exists), but it is a warning: the miss
 * leads the detail (which is cut short for the record) and is the outcome's `captureMiss`.
 */
function captured(request: HttpRequestSpec, answer: HttpAnswer, outcome: Outcome, note?: string): Outcome {
  if (outcome.kind !== 'delivered') return outcome;
  const reading = readCaptures(request.capture, answer);
  const captureMiss = reading.missing.length === 0 ? undefined : describeCaptureMiss(reading.missing);
  const parts = [captureMiss, note, outcome.detail].filter((part) => part !== undefined && part !== '');
  return {
    ...outcome,
    ...(parts.length === 0 ? {} : { detail: parts.join('; ') }),
    ...(request.capture.length === 0 ? {} : { captured: reading.captured }),
    ...(captureMiss === undefined ? {} : { captureMiss }),
  };
}
