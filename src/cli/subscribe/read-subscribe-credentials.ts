import type { OAuthClient } from '../../upstream/exchange-oauth-code.js';
import { UPSTREAM_ENV } from '../../upstream/upstream-env.js';
import { readCredential } from '../../upstream/read-credential.js';

export type SubscribeCredentials =
  | { readonly kind: 'api-key'; readonly apiKey: string }
  | { readonly kind: 'oauth'; readonly code: string; readonly client: OAuthClient };

/**
 * The API key, or with `--oauth-code` the code and the OAuth client, from the environment; or the problem.
 * The code is a flag because it is single-use and expires within minutes, unlike the key and client secret.
 */
export function readSubscribeCredentials(
  oauthCode: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): SubscribeCredentials | string {
  if (oauthCode === undefined) {
    const apiKey = readCredential(env, UPSTREAM_ENV.apiKey);
    if (apiKey instanceof Error) return `${apiKey.message} (the monitoring service's API key; or use --oauth-code)`;
    return { kind: 'api-key', apiKey };
  }
  const code = oauthCode.trim();
  if (!/^[\x21-\x7e]+$/.test(code)) return '--oauth-code: empty, or holds spaces or control characters';
  const clientId = readCredential(env, UPSTREAM_ENV.clientId);
  if (clientId instanceof Error) return `${clientId.message} (needed with --oauth-code)`;
  const clientSecret = readCredential(env, UPSTREAM_ENV.clientSecret);
  if (clientSecret instanceof Error) return `${clientSecret.message} (needed with --oauth-code)`;
  return { kind: 'oauth', code, client: { clientId, clientSecret } };
}
