import type { IncomingWebhookSendArguments } from '@slack/webhook';
import type { SlackTargetSpec } from '../../rules/rules.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { buildTemplateContext } from '../../templates/build-template-context.js';
import { renderTemplateTree } from '../../templates/render-template-tree.js';
import type { DeliveryJob } from '../target.js';
import { clipSlackMessage } from './clip-slack-message.js';
import { defaultSlackMessage } from './default-slack-message.js';

/**
 * The target's `message:` template rendered for this event, or the default message for its kind, clipped to
 * Slack's limits: a long field costs the end of that field, never the notification.
 */
export function buildSlackMessage(spec: SlackTargetSpec, job: DeliveryJob): IncomingWebhookSendArguments {
  return clipSlackMessage(renderSlackMessage(spec, job));
}

function renderSlackMessage(spec: SlackTargetSpec, job: DeliveryJob): IncomingWebhookSendArguments {
  if (spec.message === null) return defaultSlackMessage(job);
  const message = renderTemplateTree(spec.message, buildTemplateContext(job));
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new SwitchyardError('template_render', 'the message template must produce an object (text, blocks, ...)');
  }
  return message as IncomingWebhookSendArguments;
}
