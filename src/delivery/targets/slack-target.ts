import { IncomingWebhook, IncomingWebhookHTTPError, IncomingWebhookRequestError } from '@slack/webhook';
import type { IncomingWebhookDefaultArguments, IncomingWebhookSendArguments } from '@slack/webhook';
import type { SlackTargetSpec } from '../../rules/rules.js';
import { classifyNetworkError } from '../classify-network-error.js';
import { classifySlackAnswer } from '../classify-slack-answer.js';
import { createHttpSender, type HttpAnswer } from '../http/create-http-sender.js';
import { responseExcerpt } from '../http/response-excerpt.js';
import type { Outcome } from '../outcome.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import type { Target, TargetDeps } from '../target.js';
import { buildSlackMessage } from './build-slack-message.js';
import { renderFailure } from './render-failure.js';
import { senderFetch } from './sender-fetch.js';

/**
 * A Slack incoming webhook, through @slack/webhook with its retries off (the engine alone retries) and our
 * sender underneath. The webhook URL is itself the secret: it never appears in an outcome. A target with a bot
 * token instead uses the Web API (slack-api-target.ts; create-target.ts chooses).
 */
export function createSlackTarget(spec: SlackTargetSpec, deps: TargetDeps): Target {
  const webhookUrl = spec.webhookUrl;
  if (webhookUrl === null) throw new Error(`Slack target ${spec.name} has no webhook_url: it uses the Web API`);
  const sender = createHttpSender({
    timeoutMs: spec.policy.timeoutMs,
    allowLinkLocal: spec.allowLinkLocal,
    lookup: deps.lookup,
  });
  const validUrl = URL.canParse(webhookUrl);
  const defaults: IncomingWebhookDefaultArguments = {
    ...(spec.channel === null ? {} : { channel: spec.channel }),
    ...(spec.username === null ? {} : { username: spec.username }),
    ...(spec.iconEmoji === null ? {} : { icon_emoji: spec.iconEmoji }),
  };

  return {
    async send(job, signal): Promise<Outcome> {
      if (!validUrl) return { kind: 'permanent', error: 'the webhook URL is not a valid URL' };
      let message: IncomingWebhookSendArguments;
      try {
        message = buildSlackMessage(spec, job);
      } catch (error) {
        return renderFailure(error, 'the Slack message');
      }
      // A client per attempt (a few fields, no connections: those live in the sender) so the fetch can carry
      // this attempt's signal and hand back this attempt's answer even with several attempts in flight.
      let answer: HttpAnswer | undefined;
      const webhook = new IncomingWebhook(webhookUrl, {
        ...defaults,
        timeout: spec.policy.timeoutMs,
        retryConfig: { retries: 0 },
        fetch: senderFetch(sender, signal, (seen) => (answer = seen)),
      });
      try {
        await webhook.send(message);
      } catch (error) {
        if (error instanceof IncomingWebhookRequestError) return classifyNetworkError(error.original);
        if (!(error instanceof IncomingWebhookHTTPError)) return classifyNetworkError(error);
      }
      if (answer === undefined) return { kind: 'retry', error: 'no answer from Slack' };
      const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now());
      return classifySlackAnswer(answer.status, responseExcerpt(answer.body), retryAfterMs);
    },
    async close() {
      sender.close();
    },
  };
}
