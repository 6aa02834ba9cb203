import type { PagerdutyTargetSpec } from '../../rules/rules.js';
import { classifyNetworkError } from '../classify-network-error.js';
import { classifyPagerdutyAnswer } from '../classify-pagerduty-answer.js';
import { createHttpSender } from '../http/create-http-sender.js';
import { responseExcerpt } from '../http/response-excerpt.js';
import type { Outcome } from '../outcome.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import type { Target, TargetDeps } from '../target.js';
import { buildPagerdutyEvent } from './build-pagerduty-event.js';
import { renderFailure } from './render-failure.js';

const HEADERS = { 'content-type': 'application/json', 'user-agent': 'switchyard' };

/**
 * PagerDuty's Events API v2: one POST to `<base_url>/v2/enqueue` per delivery, through our sender (address
 * guard, keep-alive, timeout). The routing key travels in the body only; no message quotes the request.
 */
export function createPagerdutyTarget(spec: PagerdutyTargetSpec, deps: TargetDeps): Target {
  const sender = createHttpSender({
    timeoutMs: spec.policy.timeoutMs,
    allowLinkLocal: spec.allowLinkLocal,
    lookup: deps.lookup,
  });
  const address = `${spec.baseUrl}/v2/enqueue`;
  const url = URL.canParse(address) ? new URL(address) : null;

  return {
    async send(job, signal): Promise<Outcome> {
      if (url === null) return { kind: 'permanent', error: 'base_url is not a valid URL' };
      let body: Buffer;
      try {
        body = Buffer.from(JSON.stringify(buildPagerdutyEvent(spec, job)), 'utf8');
      } catch (error) {
        return renderFailure(error, 'the PagerDuty event');
      }
      try {
        const answer = await sender.send({ url, method: 'POST', headers: HEADERS, body, signal });
        const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now());
        return classifyPagerdutyAnswer(answer.status, responseExcerpt(answer.body), retryAfterMs);
      } catch (error) {
        return classifyNetworkError(error);
      }
    },
    async close() {
      sender.close();
    },
  };
}
