import type { SlackTargetSpec } from '../rules.js';
import { checkUrl } from './check-url.js';
import { compileTargetBasics } from './compile-target-basics.js';
import type { TargetContext } from './target-context.js';
import { asString, type SlackTargetYaml } from './target-yaml.js';

const DEFAULT_BASE_URL = 'https://slack.com/api/';

/**
 * A Slack incoming webhook (`webhook_url`) or the Web API with a bot token (`token` and `channel`: a thread per
 * correlation key); `message:` is Slack's payload with template strings, escaped for Slack.
 */
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
  checkWebhookOrToken(yaml, target);
  const baseUrl = yaml.base_url === undefined ? DEFAULT_BASE_URL : checkUrl(yaml.base_url, target, 'base_url');
  return {
    ...compileTargetBasics(yaml, 'slack', target),
    correlationKey: target.template(yaml.key, 'none', 'key'),
    webhookUrl: yaml.webhook_url === undefined ? null : checkUrl(yaml.webhook_url, target, 'webhook_url'),
    token: asString(yaml.token) ?? null,
    // The client appends the method name (`chat.postMessage`) to the base URL as written.
    baseUrl: baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`,
    channel: asString(yaml.channel) ?? null,
    username: asString(yaml.username) ?? null,
    iconEmoji: asString(yaml.icon_emoji) ?? null,
    message: target.tree(message, 'slack', 'message'),
  };
}

/** Exactly one of webhook_url and token; a token posts through chat.postMessage, which needs a channel. */
function checkWebhookOrToken(yaml: SlackTargetYaml, target: TargetContext): void {
  const webhook = yaml.webhook_url !== undefined;
  const token = yaml.token !== undefined;
  if (webhook && token) {
    target.error('conflicting_options', 'give webhook_url or token (the Web API), not both', ['token'], 'key');
  } else if (!webhook && !token) {
    target.error(
      'missing_option',
      'needs webhook_url (an incoming webhook) or token and channel (the Web API)',
      [],
      'key',
    );
  } else if (token && yaml.channel === undefined) {
    target.error('missing_option', 'needs channel with token: the Web API posts to a channel', ['token'], 'key');
  }
  if (webhook && yaml.base_url !== undefined) {
    target.error('conflicting_options', 'base_url is for token (Web API) targets only', ['base_url'], 'key');
  }
}
