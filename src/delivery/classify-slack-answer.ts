import { classifyHttpStatus } from './classify-http-status.js';
import type { Outcome } from './outcome.js';

/**
 * The error strings Slack's incoming webhooks answer with, and what they mean for the operator.
 * https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks
 * The status decides retry or not (400/403/404/410 permanent, 429 and 5xx retried); the string explains.
 */
const SLACK_ERRORS: Readonly<Record<string, string>> = {
  invalid_payload: 'Slack could not read the message; check the target message template',
  invalid_blocks: 'Slack rejected the message blocks; check the target message template',
  invalid_blocks_format: 'Slack rejected the message blocks; check the target message template',
  no_text: 'the message has no text',
  missing_text_or_fallback_or_attachments: 'the message has no text, fallback or attachments',
  user_not_found: 'the user named in the message does not exist',
  invalid_token: 'the webhook URL is not valid (revoked or mistyped)',
  action_prohibited: 'the workspace restricts this webhook from posting here',
  posting_to_general_channel_denied: 'only admins may post to this channel',
  channel_not_found: 'the webhook channel does not exist',
  no_service: 'the webhook was removed or disabled',
  no_team: 'the Slack workspace no longer exists',
  no_active_hooks: 'the webhook is no longer active',
  channel_is_archived: 'the channel is archived',
  rollup_error: 'a Slack-side error',
};

/** Slack answers errors with a bare code (`no_service`) or, for some, a JSON `{"error": "..."}` object. */
const BARE_CODE = /^[a-z_]{2,64}$/;
const JSON_ERROR = /"error"\s*:\s*"([a-z_]{2,64})"/;

/**
 * An incoming webhook answer as an outcome: 2xx delivered (Slack says `ok`), otherwise by status. The answer
 * is kept whole: the engine cuts it after masking secrets (a cut first could leave part of one).
 */
export function classifySlackAnswer(status: number, bodyText: string, retryAfterMs: number | undefined): Outcome {
  const answer = bodyText.trim();
  if (status >= 200 && status < 300) return { kind: 'delivered', status, detail: answer || undefined };
  const code = BARE_CODE.test(answer) ? answer : JSON_ERROR.exec(answer)?.[1];
  const excerpt = code === undefined ? answer : `${code} (${SLACK_ERRORS[code] ?? 'see Slack docs'})`;
  const outcome = classifyHttpStatus(status, retryAfterMs, excerpt);
  return outcome.kind === 'delivered' ? outcome : { ...outcome, error: `Slack answered ${outcome.error}` };
}
