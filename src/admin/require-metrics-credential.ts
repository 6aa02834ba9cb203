import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { AdminKeyConfig } from '../config/config.js';
import type { AuthFailureReason, AuthRefusals } from './api/create-auth-refusals.js';
import { createKeyMatcher } from './api/create-key-matcher.js';
import { apiKeyDigest } from './api/hash-api-key.js';
import { sendApiError } from './api/send-api-error.js';

// `Bearer` in any case (RFC 7235) and one credential without whitespace: wider than the admin API's token68,
// so that a legacy `admin.token` with other printable characters keeps working.
const BEARER = /^Bearer +(\S+) *$/i;
const REALM = 'Bearer realm="switchyard-admin"';
const REQUIRED = 'an admin API key with the read scope, or the admin token, is required (Authorization: Bearer ...)';

/**
 * Guards /metrics (and the details of /readyz). It accepts an admin API key with the `read` scope (`admin.keys`, the credential a
 * dashboard already holds) or the legacy admin token (`admin.token`, SWITCHYARD_ADMIN_TOKEN). With neither
 * configured it stays closed (403): no admin surface is open by default. Refusals are logged and counted in
 * the admin API's failure metric, so that guessing shows wherever it is tried; wrong credentials count against
 * the address in the same throttle as the admin API's (429 once it must wait).
 */
export function requireMetricsCredential(deps: {
  readonly token: string | null;
  readonly keys: readonly AdminKeyConfig[];
  readonly refusals: AuthRefusals;
}): RequestHandler {
  const matchKey = createKeyMatcher(deps.keys);
  // Hashed once, so the check compares two 32-byte digests whatever length was presented.
  const tokenDigest = deps.token === null ? null : apiKeyDigest(deps.token);
  const closed = deps.token === null && deps.keys.length === 0;
  const message = 'metrics request refused';
  const fail = (req: Request, reason: AuthFailureReason, fields?: Record<string, unknown>): void =>
    deps.refusals.refuse(message, req, reason, fields);

  return (req, res, next) => {
    if (closed) {
      fail(req, 'disabled');
      sendApiError(
        res,
        403,
        'admin_disabled',
        'metrics are closed: configure an admin API key with the read scope (admin.keys) or SWITCHYARD_ADMIN_TOKEN',
      );
      return;
    }
    if (deps.refusals.throttled(req, res, message)) return;
    const header = req.headers.authorization;
    const presented = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (presented === undefined) {
      fail(req, header === undefined ? 'missing' : 'malformed');
      sendApiError(res, 401, 'unauthorized', REQUIRED, { 'www-authenticate': REALM });
      return;
    }
    // Both checks always run, each in constant time, so timing does not tell which kind of credential matched.
    const key = matchKey(presented);
    const isToken = tokenDigest !== null && timingSafeEqual(apiKeyDigest(presented), tokenDigest);
    if (isToken || key?.scopes.includes('read') === true) {
      next();
      return;
    }
    if (key !== undefined) {
      fail(req, 'scope', { key: key.name, scope: 'read' });
      sendApiError(res, 403, 'insufficient_scope', `the key "${key.name}" lacks the "read" scope`, {
        'www-authenticate': `${REALM}, error="insufficient_scope", scope="read"`,
      });
      return;
    }
    fail(req, 'invalid');
    sendApiError(res, 401, 'unauthorized', REQUIRED, { 'www-authenticate': `${REALM}, error="invalid_token"` });
  };
}
