import type { DeliveryPolicy } from '../../rules/rules.js';
import { classifyNetworkError } from '../classify-network-error.js';
import { createHttpSender } from '../http/create-http-sender.js';
import { responseExcerpt } from '../http/response-excerpt.js';
import type { Outcome } from '../outcome.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import type { DeliveryJob, Target, TargetDeps } from '../target.js';
import type { HttpRequestParts } from './build-http-request.js';
import { renderFailure } from './render-failure.js';

export interface HttpPostTargetOptions {
  readonly policy: DeliveryPolicy;
  readonly allowLinkLocal: boolean;
  readonly url: string;
  /** Names the URL in the outcome when it does not parse (never quoting it: it may hold a secret). */
  readonly urlName: string;
  readonly method: string;
  /** This attempt's headers and body, or its outcome when nothing is to be sent; throws when a template cannot render. */
  readonly build: (job: DeliveryJob) => HttpRequestParts | Outcome;
  /** Names what `build` makes, for its failure: `the request body`. */
  readonly built: string;
  /** The target's reading of an answer: its status, its body as one line, `Retry-After` as a delay from now. */
  readonly classify: (status: number, excerpt: string, retryAfterMs: number | undefined) => Outcome;
  /** PEM certificates trusted for https:// instead of the public roots (an `http` target's `ca:`). */
  readonly ca?: string | undefined;
  /** The option that sets `ca`, named in the error when a certificate does not verify; absent = no such option. */
  readonly caOption?: string | undefined;
}

/**
 * A target that sends one HTTP request per attempt through our sender (address guard, keep-alive pool of
 * its own, per-attempt timeout): every failure becomes an outcome, and messages never quote the URL.
 */
export function createHttpPostTarget(options: HttpPostTargetOptions, deps: TargetDeps): Target {
  const sender = createHttpSender({
    timeoutMs: options.policy.timeoutMs,
    allowLinkLocal: options.allowLinkLocal,
    lookup: deps.lookup,
    ca: options.ca,
  });
  const url = URL.canParse(options.url) ? new URL(options.url) : null;

  return {
    async send(job, signal): Promise<Outcome> {
      let parts: HttpRequestParts | Outcome;
      try {
        parts = options.build(job);
      } catch (error) {
        return renderFailure(error, options.built);
      }
      if ('kind' in parts) return parts;
      const { headers, body, delivered, keepBytes } = parts;
      const to = parts.url ?? url;
      if (to === null) return { kind: 'permanent', error: `${options.urlName} is not a valid URL` };
      try {
        const method = parts.method ?? options.method;
        const answer = await sender.send({ url: to, method, headers, body, signal, keepBytes });
        const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now());
        const outcome = options.classify(answer.status, responseExcerpt(answer.body), retryAfterMs);
        return outcome.kind === 'delivered' && delivered !== undefined ? delivered(answer, outcome) : outcome;
      } catch (error) {
        return classifyNetworkError(error, options.caOption);
      }
    },
    async close() {
      sender.close();
    },
  };
}
