import { describe, expect, it } from 'vitest';
import { classifyPagerdutyAnswer } from '../../src/delivery/classify-pagerduty-answer.js';
import type { Outcome } from '../../src/delivery/outcome.js';

const PROCESSED = '{"status":"success","message":"Event processed","dedup_key":"incident:inc_1"}';
const INVALID =
  '{"status":"invalid event","message":"Event object is invalid","errors":["Length of \'routing_key\' is incorrect (should be 32 characters)"]}';
const THROTTLED = '{"status":"throttle event","message":"Requests for this service are arriving too quickly."}';

describe('classifyPagerdutyAnswer', () => {
  it('202 is delivered, with the dedup_key PagerDuty filed the event under', () => {
    expect(classifyPagerdutyAnswer(202, PROCESSED, undefined)).toEqual({
      kind: 'delivered',
      status: 202,
      detail: 'Event processed; dedup_key incident:inc_1',
      captured: { dedup_key: 'incident:inc_1' },
    });
    expect(classifyPagerdutyAnswer(202, 'accepted', undefined)).toEqual({
      kind: 'delivered',
      status: 202,
      detail: 'accepted',
      captured: undefined,
    });
  });

  const failures: [string, number, string, number | undefined, Outcome][] = [
    [
      '400 is permanent, with PagerDuty message and errors',
      400,
      INVALID,
      undefined,
      {
        kind: 'permanent',
        status: 400,
        error:
          "PagerDuty answered HTTP 400: Event object is invalid: Length of 'routing_key' is incorrect (should be 32 characters)",
      },
    ],
    [
      '429 is retried as rate limiting, honouring Retry-After',
      429,
      THROTTLED,
      30_000,
      {
        kind: 'retry',
        status: 429,
        error: 'PagerDuty answered HTTP 429: Requests for this service are arriving too quickly.',
        retryAfterMs: 30_000,
        rateLimited: true,
      },
    ],
    [
      '429 without Retry-After leaves the delay to the engine',
      429,
      '',
      undefined,
      { kind: 'retry', status: 429, error: 'PagerDuty answered HTTP 429', retryAfterMs: undefined, rateLimited: true },
    ],
    [
      '5xx is retried; a body that is not JSON is quoted as it is',
      503,
      '<html>Service Unavailable</html>',
      undefined,
      {
        kind: 'retry',
        status: 503,
        error: 'PagerDuty answered HTTP 503: <html>Service Unavailable</html>',
        retryAfterMs: undefined,
      },
    ],
    [
      'another status reads as for any HTTP API: a wrong base_url answering 404 is permanent',
      404,
      '{"message":"Not Found"}',
      undefined,
      { kind: 'permanent', status: 404, error: 'PagerDuty answered HTTP 404: Not Found' },
    ],
  ];
  it.each(failures)('%s', (_name, status, body, retryAfterMs, expected) => {
    expect(classifyPagerdutyAnswer(status, body, retryAfterMs)).toEqual(expected);
  });
});
