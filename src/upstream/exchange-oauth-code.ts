import { SwitchyardError } from '../switchyard-error.js';
import { upstreamFailure } from './upstream-failure.js';
import { upstreamRequest } from './upstream-request.js';
import { UPSTREAM_ENV } from './upstream-env.js';

export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * Exchanges an authorization code for an access token: `POST {base}/oauth/token` with
 * `{grant_type: "authorization_code", code, client_id, client_secret}` (the authorization code grant,
 * RFC 6749 §4.1.3, in the JSON form the service takes). Resolves with the access token, which the caller
 * uses once and never prints; a refresh token, if any, is not kept (a subscription needs one call).
 */
export async function exchangeOAuthCode(baseUrl: URL, code: string, client: OAuthClient): Promise<string> {
  const secrets = [code, client.clientSecret];
  const answer = await upstreamRequest(baseUrl, {
    method: 'POST',
    path: '/oauth/token',
    json: { grant_type: 'authorization_code', code, client_id: client.clientId, client_secret: client.clientSecret },
    secrets,
  });
  if (answer.status < 200 || answer.status > 299) {
    throw upstreamFailure('exchanging the authorization code failed', answer, secrets, {
      400: 'an authorization code works once and expires within minutes: get a new one',
      401: `check ${UPSTREAM_ENV.clientId} and ${UPSTREAM_ENV.clientSecret}`,
    });
  }
  const body = parseJson(answer.text);
  const token = body?.access_token;
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
    throw new SwitchyardError('upstream_refused', 'the token answer holds no usable access_token');
  }
  if (typeof body?.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer') {
    throw new SwitchyardError('upstream_refused', `the token answer's token_type is not Bearer`);
  }
  return token;
}

function parseJson(text: string): { access_token?: unknown; token_type?: unknown } | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}
