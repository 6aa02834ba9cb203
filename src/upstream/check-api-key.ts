import { readErrorMessage } from './read-error-message.js';
import { upstreamRequest } from './upstream-request.js';
import { redactDetail } from '../delivery/redact-detail.js';

export interface ApiKeyCheck {
  /** 200: accepted; 401: refused; 403: known but not allowed to list agents; anything else: unexpected. */
  readonly status: number;
  /** The service's own message for an unsuccessful answer, secrets masked; empty when none. */
  readonly message: string;
}

/**
 * Tries an API key with the cheapest authenticated read, `GET {base}/v1/agents`, whose body is not needed.
 * Rejects with `upstream_unreachable` when the service does not answer.
 */
export async function checkApiKey(baseUrl: URL, apiKey: string): Promise<ApiKeyCheck> {
  const answer = await upstreamRequest(baseUrl, { method: 'GET', path: '/v1/agents', bearer: apiKey });
  const message = answer.status === 200 ? '' : redactDetail(readErrorMessage(answer.text), [apiKey]);
  return { status: answer.status, message };
}
