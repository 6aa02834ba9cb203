import { describe, expect, it } from 'vitest';
import { classifyTeamsAnswer } from '../../src/delivery/classify-teams-answer.js';

const powerAutomateError = (code: string, message: string) => JSON.stringify({ error: { code, message } });

describe('classifyTeamsAnswer', () => {
  it('202 Accepted (and 200) with an empty body is delivered', () => {
    expect(classifyTeamsAnswer(202, '', undefined)).toEqual({ kind: 'delivered', status: 202, detail: undefined });
    expect(classifyTeamsAnswer(200, ' 1 ', undefined)).toEqual({ kind: 'delivered', status: 200, detail: '1' });
  });

  it.each([
    [400, 'TriggerInputSchemaMismatch', 'check the target message template'],
    [401, 'DirectApiInvalidAuthorizationSignature', 'copy it again from the workflow'],
    [403, 'AuthorizationFailed', 'check the workflow'],
    [404, 'WorkflowNotFound', 'deleted, or the URL is mistyped'],
  ])('%i %s is permanent, with the code and what to do', (status, code, hint) => {
    const outcome = classifyTeamsAnswer(status, powerAutomateError(code, 'details.'), undefined);
    expect(outcome).toMatchObject({ kind: 'permanent', status });
    const error = outcome.kind === 'permanent' ? outcome.error : '';
    expect(error).toMatch(new RegExp(`^Teams answered HTTP ${status}: ${code}: details\\. \\(`));
    expect(error).toContain(hint);
  });

  it('429 is retried after Retry-After, as rate limiting; 408 and 5xx are retried', () => {
    expect(classifyTeamsAnswer(429, powerAutomateError('TooManyRequests', 'Rate limit.'), 7_000)).toEqual({
      kind: 'retry',
      status: 429,
      retryAfterMs: 7_000,
      rateLimited: true,
      error: 'Teams answered HTTP 429: TooManyRequests: Rate limit.',
    });
    expect(classifyTeamsAnswer(408, '', undefined)).toMatchObject({ kind: 'retry', status: 408 });
    expect(classifyTeamsAnswer(502, '<html>Bad Gateway</html>', undefined)).toMatchObject({
      kind: 'retry',
      error: 'Teams answered HTTP 502: <html>Bad Gateway</html>',
    });
  });

  it('an answer that is not Power Automate JSON is shown as it came; other 4xx follow their status', () => {
    expect(classifyTeamsAnswer(410, 'gone', undefined)).toEqual({
      kind: 'permanent',
      status: 410,
      error: 'Teams answered HTTP 410: gone',
    });
    expect(classifyTeamsAnswer(400, '{"error":"flat"}', undefined)).toMatchObject({
      error: expect.stringContaining('{"error":"flat"} (the workflow refused'),
    });
  });
});
