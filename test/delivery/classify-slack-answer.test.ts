import { describe, expect, it } from 'vitest';
import { classifySlackAnswer } from '../../src/delivery/classify-slack-answer.js';

describe('classifySlackAnswer', () => {
  it('200 ok is delivered', () => {
    expect(classifySlackAnswer(200, 'ok', undefined)).toEqual({ kind: 'delivered', status: 200, detail: 'ok' });
  });

  // https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks
  it.each([
    [400, 'invalid_payload', 'message template'],
    [400, 'invalid_token', 'revoked or mistyped'],
    [400, 'no_text', 'no text'],
    [400, 'user_not_found', 'does not exist'],
    [403, 'action_prohibited', 'restricts'],
    [404, 'channel_not_found', 'does not exist'],
    [404, 'no_service', 'removed or disabled'],
    [410, 'channel_is_archived', 'archived'],
  ])('%i %s is permanent, explained', (status, code, explanation) => {
    const outcome = classifySlackAnswer(status, `${code}\n`, undefined);
    expect(outcome).toMatchObject({ kind: 'permanent', status });
    const error = outcome.kind === 'permanent' ? outcome.error : '';
    expect(error).toContain(`Slack answered HTTP ${status}: ${code}`);
    expect(error).toContain(explanation);
  });

  it('429 is retried after the Retry-After delay', () => {
    expect(classifySlackAnswer(429, '{"ok":false,"error":"rate_limited"}', 30_000)).toMatchObject({
      kind: 'retry',
      status: 429,
      retryAfterMs: 30_000,
      error: 'Slack answered HTTP 429: rate_limited (see Slack docs)',
    });
  });

  it('500 rollup_error and other 5xx are retried', () => {
    expect(classifySlackAnswer(500, 'rollup_error', undefined)).toMatchObject({
      kind: 'retry',
      error: 'Slack answered HTTP 500: rollup_error (a Slack-side error)',
    });
    expect(classifySlackAnswer(503, '<html>Service Unavailable</html>', undefined)).toMatchObject({
      kind: 'retry',
      status: 503,
    });
  });

  it('an undocumented 4xx follows its status', () => {
    expect(classifySlackAnswer(401, 'whatever', undefined)).toMatchObject({ kind: 'permanent', status: 401 });
    expect(classifySlackAnswer(408, '', undefined)).toMatchObject({ kind: 'retry', status: 408 });
  });
});
