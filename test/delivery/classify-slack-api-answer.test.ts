import { describe, expect, it } from 'vitest';
import { classifySlackApiAnswer, slackApiErrorCode } from '../../src/delivery/classify-slack-api-answer.js';

const error = (code: string) => JSON.stringify({ ok: false, error: code });

describe('classifySlackApiAnswer', () => {
  it('rate limiting, as 429 or as the ratelimited code, pauses after Retry-After', () => {
    expect(classifySlackApiAnswer(429, error('ratelimited'), 5_000)).toEqual({
      kind: 'retry',
      status: 429,
      error: 'Slack answered ratelimited (Slack is rate limiting this app)',
      retryAfterMs: 5_000,
      rateLimited: true,
    });
    expect(classifySlackApiAnswer(200, error('ratelimited'), undefined)).toMatchObject({ rateLimited: true });
    expect(classifySlackApiAnswer(429, '', undefined)).toMatchObject({ error: 'Slack answered HTTP 429' });
  });

  it.each([
    'channel_not_found',
    'not_in_channel',
    'invalid_auth',
    'account_inactive',
    'token_revoked',
    'missing_scope',
  ])('%s is permanent, with what it means', (code) => {
    const outcome = classifySlackApiAnswer(200, error(code), undefined);
    expect(outcome).toMatchObject({ kind: 'permanent', status: 200 });
    expect(outcome.kind === 'permanent' && outcome.error).toMatch(new RegExp(`^Slack answered ${code} \\(.+\\)$`));
  });

  it('Slack-side errors, 5xx and an answer without ok are retried; an unknown code is permanent', () => {
    expect(classifySlackApiAnswer(200, error('internal_error'), undefined)).toMatchObject({ kind: 'retry' });
    expect(classifySlackApiAnswer(502, '<html>bad gateway</html>', 2_000)).toMatchObject({
      kind: 'retry',
      status: 502,
      retryAfterMs: 2_000,
    });
    expect(classifySlackApiAnswer(200, 'not json', undefined)).toMatchObject({ kind: 'retry' });
    expect(classifySlackApiAnswer(200, error('some_new_code'), undefined)).toEqual({
      kind: 'permanent',
      status: 200,
      error: 'Slack answered some_new_code (see Slack docs)',
    });
    expect(classifySlackApiAnswer(404, 'Not Found', undefined)).toMatchObject({ kind: 'permanent', status: 404 });
  });

  it('reads the code only from an ok: false answer', () => {
    expect(slackApiErrorCode(error('no_text'))).toBe('no_text');
    expect(slackApiErrorCode('{"ok":true,"error":"x"}')).toBeUndefined();
    expect(slackApiErrorCode('null')).toBeUndefined();
  });
});
