/**
 * Where the upstream credentials come from. Environment only, never flags: a flag's value shows in `ps`,
 * in shell history and in CI logs.
 */
export const UPSTREAM_ENV = {
  /** The monitoring service's API key, sent as `Authorization: Bearer <key>`. */
  apiKey: 'SWITCHYARD_UPSTREAM_API_KEY',
  /** The OAuth client for `subscribe --oauth-code`. */
  clientId: 'SWITCHYARD_OAUTH_CLIENT_ID',
  clientSecret: 'SWITCHYARD_OAUTH_CLIENT_SECRET',
} as const;
