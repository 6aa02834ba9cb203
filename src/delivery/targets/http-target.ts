import type { HttpTargetSpec } from '../../rules/rules.js';
import { classifyHttpStatus } from '../classify-http-status.js';
import { classifyNetworkError } from '../classify-network-error.js';
import { createHttpSender } from '../http/create-http-sender.js';
import { responseExcerpt } from '../http/response-excerpt.js';
import type { Outcome } from '../outcome.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import type { Target, TargetDeps } from '../target.js';
import { buildHttpRequest, type HttpRequestParts } from './build-http-request.js';
import { renderFailure } from './render-failure.js';

/**
 * A ticketing system or any HTTP endpoint. Every failure becomes an outcome; messages never quote the URL
 * (its query may carry a token) or header values.
 */
export function createHttpTarget(spec: HttpTargetSpec, deps: TargetDeps): Target {
  const sender = createHttpSender({
    timeoutMs: spec.policy.timeoutMs,
    allowLinkLocal: spec.allowLinkLocal,
    lookup: deps.lookup,
  });
  const url = URL.canParse(spec.url) ? new URL(spec.url) : null;

  return {
    async send(job, signal): Promise<Outcome> {
      if (url === null) return { kind: 'permanent', error: 'the target URL is not a valid URL' };
      let parts: HttpRequestParts;
      try {
        parts = buildHttpRequest(spec, job);
      } catch (error) {
        return renderFailure(error, 'the request body');
      }
      try {
        const answer = await sender.send({ url, method: spec.method, ...parts, signal });
        const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now());
        return classifyHttpStatus(answer.status, retryAfterMs, responseExcerpt(answer.body));
      } catch (error) {
        return classifyNetworkError(error);
      }
    },
    async close() {
      sender.close();
    },
  };
}
