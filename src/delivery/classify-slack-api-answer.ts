import { classifyHttpStatus } from './classify-http-status.js';
import type { Outcome } from './outcome.js';

/**
 * What Slack's Web API error codes mean for the operator (https://docs.slack.dev/reference/methods/chat.postMessage,
 * .../chat.update). The API answers HTTP 200 with `{"ok": false, "error": "<code>"}` for all of them: the code,
 * not the status, decides retry or not.
 */
const SLACK_API_ERRORS: Readonly<Record<string, string>> = {
  ratelimited: 'Slack is rate limiting this app',
  channel_not_found: 'the channel does not exist, or the bot cannot see it (a private channel it was not added to)',
  not_in_channel: 'the bot is not in the channel; invite it (/invite @bot)',
  is_archived: 'the channel is archived',
  invalid_auth: 'the token is not valid (mistyped, or from another workspace)',
  not_authed: 'no token was sent',
  account_inactive: 'the token belongs to a deleted user or app',
  token_revoked: 'the token was revoked',
  token_expired: 'the token expired',
  missing_scope: 'the token lacks a scope this call needs (chat:write)',
  no_permission: 'the token may not post here',
  restricted_action: 'the workspace restricts posting to this channel',
  msg_too_long: 'the message is too long; check the target message template',
  no_text: 'the message has no text',
  invalid_blocks: 'Slack rejected the message blocks; check the target message template',
  invalid_attachments: 'Slack rejected the message attachments; check the target message template',
  invalid_arguments: 'Slack rejected the arguments; check the target message template',
  message_not_found: 'the thread parent no longer exists',
  cant_update_message: 'the parent message was not posted by this bot',
  edit_window_closed: 'the workspace no longer allows editing the parent message',
};

/** Codes that say "not now": Slack's own failures and its rate limit. */
const TRANSIENT: ReadonlySet<string> = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

/** The `error` code of a Web API answer, if it is one. */
export function slackApiErrorCode(bodyText: string): string | undefined {
  try {
    const body = JSON.parse(bodyText) as unknown;
    if (typeof body !== 'object' || body === null) return undefined;
    const { ok, error } = body as { ok?: unknown; error?: unknown };
    return ok === false && typeof error === 'string' ? error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A failed Web API answer as an outcome: HTTP 429 or `ratelimited` is rate limiting (after `Retry-After`),
 * other non-200 statuses by status (5xx retried), a 200 with an error code by the code: Slack-side failures
 * retried, everything else (a bad token, a missing channel or scope, a refused message) permanent, since the
 * same request would be refused again.
 */
export function classifySlackApiAnswer(status: number, bodyText: string, retryAfterMs: number | undefined): Outcome {
  const code = slackApiErrorCode(bodyText);
  const excerpt = code === undefined ? bodyText.trim() : `${code} (${SLACK_API_ERRORS[code] ?? 'see Slack docs'})`;
  if (status === 429 || code === 'ratelimited') {
    return { kind: 'retry', status, error: `Slack answered ${excerpt || 'HTTP 429'}`, retryAfterMs, rateLimited: true };
  }
  if (status !== 200) {
    const outcome = classifyHttpStatus(status, retryAfterMs, excerpt);
    return outcome.kind === 'delivered' ? outcome : { ...outcome, error: `Slack answered ${outcome.error}` };
  }
  if (code === undefined) return { kind: 'retry', status, error: `Slack answered without ok: ${excerpt}` };
  if (TRANSIENT.has(code)) return { kind: 'retry', status, error: `Slack answered ${excerpt}`, retryAfterMs };
  return { kind: 'permanent', status, error: `Slack answered ${excerpt}` };
}
