import type { TeamsTargetSpec } from '../../rules/rules.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { buildTemplateContext } from '../../templates/build-template-context.js';
import { renderTemplateTree } from '../../templates/render-template-tree.js';
import type { DeliveryJob } from '../target.js';
import { clipTeamsMessage } from './clip-teams-message.js';
import { defaultTeamsMessage } from './default-teams-message.js';
import { teamsPayload, type TeamsPayload } from './teams-payload.js';

/**
 * The payload for a Teams workflow: the target's `message:` rendered for this event (an Adaptive Card, sent
 * as the attachment's content, or with `type: message` the whole payload), or the default card for the
 * event's kind; clipped to Teams' size, so a long field costs the end of that field, never the notification.
 */
export function buildTeamsMessage(spec: TeamsTargetSpec, job: DeliveryJob): TeamsPayload {
  return clipTeamsMessage(renderTeamsMessage(spec, job));
}

function renderTeamsMessage(spec: TeamsTargetSpec, job: DeliveryJob): TeamsPayload {
  if (spec.message === null) return teamsPayload(defaultTeamsMessage(job));
  const message = renderTemplateTree(spec.message, buildTemplateContext(job));
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new SwitchyardError('template_render', 'the message template must produce an object (an Adaptive Card)');
  }
  // The rules compiler allows `type: message` (the payload) or `type: AdaptiveCard` (the card) only.
  const fields = message as Readonly<Record<string, unknown>>;
  return fields.type === 'message' ? (fields as unknown as TeamsPayload) : teamsPayload(fields);
}
