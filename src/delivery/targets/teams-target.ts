import type { TeamsTargetSpec } from '../../rules/rules.js';
import { classifyNetworkError } from '../classify-network-error.js';
import { classifyTeamsAnswer } from '../classify-teams-answer.js';
import { createHttpSender } from '../http/create-http-sender.js';
import { responseExcerpt } from '../http/response-excerpt.js';
import type { Outcome } from '../outcome.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import type { Target, TargetDeps } from '../target.js';
import { buildTeamsMessage } from './build-teams-message.js';
import { renderFailure } from './render-failure.js';

/**
 * A Microsoft Teams channel, through a Workflows webhook (the Office 365 connectors are retired). The
 * webhook URL is itself the secret (its `sig` query signs the calls): it never appears in an outcome.
 */
export function createTeamsTarget(spec: TeamsTargetSpec, deps: TargetDeps): Target {
  const sender = createHttpSender({
    timeoutMs: spec.policy.timeoutMs,
    allowLinkLocal: spec.allowLinkLocal,
    lookup: deps.lookup,
  });
  const url = URL.canParse(spec.webhookUrl) ? new URL(spec.webhookUrl) : null;

  return {
    async send(job, signal): Promise<Outcome> {
      if (url === null) return { kind: 'permanent', error: 'the webhook URL is not a valid URL' };
      let body: Buffer;
      try {
        body = Buffer.from(JSON.stringify(buildTeamsMessage(spec, job)));
      } catch (error) {
        return renderFailure(error, 'the Teams message');
      }
      try {
        const headers = { 'content-type': 'application/json' };
        const answer = await sender.send({ url, method: 'POST', headers, body, signal });
        const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now());
        return classifyTeamsAnswer(answer.status, responseExcerpt(answer.body), retryAfterMs);
      } catch (error) {
        return classifyNetworkError(error);
      }
    },
    async close() {
      sender.close();
    },
  };
}
