import type { DeliveryJob } from '../../../src/delivery/target.js';
import { buildEmailMessage, type EmailMessage } from '../../../src/delivery/targets/build-email-message.js';
import { buildHttpAttempt } from '../../../src/delivery/targets/build-http-attempt.js';
import { buildPagerdutyEvent } from '../../../src/delivery/targets/build-pagerduty-event.js';
import { buildSlackMessage } from '../../../src/delivery/targets/build-slack-message.js';
import { buildTeamsMessage } from '../../../src/delivery/targets/build-teams-message.js';
import type { TargetSpec } from '../../../src/rules/rules.js';
import { buildTemplateContext } from '../../../src/templates/build-template-context.js';

/** What a target would put on the wire for one job, through the same builders the targets use. */
export type RenderedTarget =
  | { readonly type: 'http'; readonly contentType: string; readonly body: Buffer; readonly url: URL | undefined }
  | { readonly type: 'slack' | 'teams'; readonly body: Buffer }
  | { readonly type: 'pagerduty'; readonly body: Buffer }
  | { readonly type: 'email'; readonly message: EmailMessage };

export function renderDocTarget(spec: TargetSpec, job: DeliveryJob): RenderedTarget {
  switch (spec.type) {
    case 'http': {
      const attempt = buildHttpAttempt(spec, job);
      if ('kind' in attempt) throw new Error(`nothing to send: ${JSON.stringify(attempt)}`);
      return { type: 'http', contentType: attempt.headers['content-type'] ?? '', body: attempt.body, url: attempt.url };
    }
    case 'slack':
      // @slack/webhook sends the payload with JSON.stringify; the same here.
      return { type: 'slack', body: Buffer.from(JSON.stringify(buildSlackMessage(spec, job))) };
    case 'teams':
      return { type: 'teams', body: Buffer.from(JSON.stringify(buildTeamsMessage(spec, job))) };
    case 'email':
      return { type: 'email', message: buildEmailMessage(spec, job, buildTemplateContext(job)) };
    case 'pagerduty':
      return { type: 'pagerduty', body: Buffer.from(JSON.stringify(buildPagerdutyEvent(spec, job))) };
  }
}

/** Every string value in a parsed JSON value, at any depth. */
export function jsonStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(jsonStrings);
  return [];
}

/** Every object key in a parsed JSON value, at any depth: event text that broke out would add one. */
export function jsonKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(jsonKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...jsonKeys(inner)]);
  }
  return [];
}
