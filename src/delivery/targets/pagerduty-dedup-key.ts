import { createHash } from 'node:crypto';
import { defaultCorrelationKey } from '../../lifecycle/default-correlation-key.js';
import type { PagerdutyTargetSpec } from '../../rules/rules.js';
import { buildTemplateContext } from '../../templates/build-template-context.js';
import type { DeliveryJob } from '../target.js';

/** PagerDuty refuses a longer `dedup_key` (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/). */
export const MAX_DEDUP_KEY = 255;

/**
 * The `dedup_key` that ties an event to its PagerDuty alert, so a later trigger updates it and a resolve
 * closes it: the delivery's correlation key when the journal gives one, else the target's `key:` rendered
 * over the event, else the default key (incident id, agent id). An event with no key at all (a `key:` that
 * renders blank, or a kind without one) stands alone under its event id. A key over PagerDuty's limit is
 * replaced by its SHA-256, the same for every event of the key, where cutting it could merge two alerts.
 * Throws `template_render` when `key:` fails to render.
 */
export function pagerdutyDedupKey(spec: PagerdutyTargetSpec, job: DeliveryJob): string {
  const key = chosenKey(spec, job) ?? job.event.id;
  return key.length <= MAX_DEDUP_KEY ? key : `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}

function chosenKey(spec: PagerdutyTargetSpec, job: DeliveryJob): string | null {
  if (typeof job.correlationKey === 'string' && job.correlationKey !== '') return job.correlationKey;
  if (spec.correlationKey === null || spec.correlationKey === undefined) {
    return defaultCorrelationKey(job.event.kind, job.envelope['data']);
  }
  const rendered = spec.correlationKey.render(buildTemplateContext(job));
  return rendered.trim() === '' ? null : rendered;
}
