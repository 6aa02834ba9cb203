import type { SlackTargetSpec } from '../rules.js';
import { checkUrl } from './check-url.js';
import { compileDeliveryPolicy } from './compile-delivery-policy.js';
import type { TargetContext } from './target-context.js';
import { asBoolean, asString, type SlackTargetYaml } from './target-yaml.js';

/** A Slack incoming webhook; `message:` is Slack's payload with template strings, escaped for Slack. */
export function compileSlackTarget(yaml: SlackTargetYaml, target: TargetContext): SlackTargetSpec {
  const message = yaml.message;
  if (
    message !== undefined &&
    !target.isBroken('message') &&
    message.text === undefined &&
    message.blocks === undefined &&
    message.attachments === undefined
  ) {
    target.error('missing_option', 'needs text, blocks or attachments', ['message']);
  }
  return {
    name: target.name,
    type: 'slack',
    policy: compileDeliveryPolicy(yaml, 'slack', target),
    allowLinkLocal: asBoolean(yaml.allow_link_local) ?? false,
    correlationKey: target.template(yaml.key, 'none', 'key'),
    webhookUrl: checkUrl(yaml.webhook_url, target, 'webhook_url'),
    channel: asString(yaml.channel) ?? null,
    username: asString(yaml.username) ?? null,
    iconEmoji: asString(yaml.icon_emoji) ?? null,
    message: target.tree(message, 'slack', 'message'),
  };
}
