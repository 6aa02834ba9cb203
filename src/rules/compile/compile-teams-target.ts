import type { TeamsTargetSpec } from '../rules.js';
import { checkUrl } from './check-url.js';
import { compileTargetBasics } from './compile-target-basics.js';
import type { TargetContext } from './target-context.js';
import { type TeamsTargetYaml } from './target-yaml.js';

/**
 * A Teams Workflows webhook; `message:` is an Adaptive Card (`type: AdaptiveCard`) or the whole payload
 * (`type: message`), its strings templates whose values are escaped for Teams Markdown.
 */
export function compileTeamsTarget(yaml: TeamsTargetYaml, target: TargetContext): TeamsTargetSpec {
  if (yaml.message !== undefined && !target.isBroken('message')) checkMessage(yaml.message, target);
  return {
    ...compileTargetBasics(yaml, 'teams', target),
    webhookUrl: checkUrl(yaml.webhook_url, target, 'webhook_url'),
    message: target.tree(yaml.message, 'teams', 'message'),
  };
}

/**
 * The shape the workflow needs, which the schema leaves open (a card has dozens of optional properties). The
 * `type` must be written out, never a template: it says at load time whether the message is wrapped.
 */
function checkMessage(message: Readonly<Record<string, unknown>>, target: TargetContext): void {
  if (message.type === 'AdaptiveCard') {
    if (!Array.isArray(message.body)) target.error('missing_option', 'an Adaptive Card needs a body list', ['message']);
  } else if (message.type === 'message') {
    if (!Array.isArray(message.attachments)) {
      target.error('missing_option', 'a message needs an attachments list', ['message']);
    }
  } else {
    const where = message.type === undefined ? ['message'] : ['message', 'type'];
    target.error('bad_message', 'needs type: AdaptiveCard (the card) or type: message (the whole payload)', where);
  }
}
