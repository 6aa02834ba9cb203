import { describe, expect, it } from 'vitest';
import { classifyHttpStatus } from '../../src/delivery/classify-http-status.js';

describe('classifyHttpStatus', () => {
  it.each([200, 201, 202, 204, 299])('%i is delivered', (status) => {
    expect(classifyHttpStatus(status, undefined)).toMatchObject({ kind: 'delivered', status });
  });

  it.each([408, 425, 500, 502, 503, 504, 599])('%i is retried with the Retry-After hint', (status) => {
    expect(classifyHttpStatus(status, 7_000, 'busy')).toEqual({
      kind: 'retry',
      status,
      error: `HTTP ${status}: busy`,
      retryAfterMs: 7_000,
    });
  });

  it('429 is retried as rate limiting (pauses the target, not a circuit failure), with or without Retry-After', () => {
    expect(classifyHttpStatus(429, 7_000, 'slow down')).toEqual({
      kind: 'retry',
      status: 429,
      error: 'HTTP 429: slow down',
      retryAfterMs: 7_000,
      rateLimited: true,
    });
    expect(classifyHttpStatus(429, undefined)).toMatchObject({ kind: 'retry', rateLimited: true });
    expect(classifyHttpStatus(503, undefined)).not.toHaveProperty('rateLimited');
  });

  it.each([400, 401, 403, 404, 405, 409, 410, 413, 422])('%i is permanent', (status) => {
    expect(classifyHttpStatus(status, 7_000)).toEqual({ kind: 'permanent', status, error: `HTTP ${status}` });
  });

  it.each([301, 302, 307, 308])('%i is permanent: redirects are not followed', (status) => {
    const outcome = classifyHttpStatus(status, undefined);
    expect(outcome).toMatchObject({ kind: 'permanent', status });
    expect(outcome.kind === 'permanent' && outcome.error).toContain('redirects are not followed');
  });

  it('keeps the excerpt of a delivered answer as its detail', () => {
    expect(classifyHttpStatus(201, undefined, '{"key":"SOC-12"}')).toEqual({
      kind: 'delivered',
      status: 201,
      detail: '{"key":"SOC-12"}',
    });
  });
});
