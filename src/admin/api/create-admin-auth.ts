import type { Request, RequestHandler, Response } from 'express';
import type { AdminKeyConfig, AdminScope } from '../../config/config.js';
import type { AuthFailureReason, AuthRefusals } from './create-auth-refusals.js';
import { authenticateSession } from './authenticate-session.js';
import type { ConsoleSessions } from './create-console-sessions.js';
import { createKeyMatcher } from './create-key-matcher.js';
import { readSessionCookie } from './session-cookie.js';
import { sendApiError } from './send-api-error.js';

export { AUTH_FAILURES_METRIC } from './create-auth-refusals.js';

export interface AdminAuth {
  /**
   * Runs first on every API request: 403 while no key is configured, 429 while the address waits after
   * repeated wrong keys, 401 without a valid key.
   */
  readonly authenticate: RequestHandler;
  /** 403 unless the key that authenticated the request has `scope`. */
  readonly requireScope: (scope: AdminScope) => RequestHandler;
}

/** The key that authenticated this request (set by `authenticate`). */
export function requestKey(res: Response): AdminKeyConfig {
  return res.locals.adminKey as AdminKeyConfig;
}

// RFC 6750 §2.1: `Bearer` (case-insensitive) and a token of token68 characters.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Bearer-key authentication for the admin API, or the console's session cookie when no Authorization header is
 * sent and `sessions` is given (the admin listener only; see authenticateSession for CSRF). Failures are logged (method, path, peer, reason; never the
 * presented key) and counted by reason, so that guessing shows in metrics and logs, and repeated wrong keys
 * slow their address down (see createAuthRefusals).
 */
export function createAdminAuth(deps: {
  readonly keys: readonly AdminKeyConfig[];
  readonly refusals: AuthRefusals;
  readonly sessions?: ConsoleSessions | undefined;
}): AdminAuth {
  const match = createKeyMatcher(deps.keys);
  const message = 'admin API request refused';
  const fail = (req: Request, reason: AuthFailureReason, fields: Record<string, unknown> = {}): void =>
    deps.refusals.refuse(message, req, reason, fields);
  return {
    authenticate(req, res, next) {
      if (deps.keys.length === 0) {
        fail(req, 'disabled');
        sendApiError(res, 403, 'admin_disabled', 'admin API disabled: no keys configured (admin.keys)');
        return;
      }
      if (deps.refusals.throttled(req, res, message)) return;
      const header = req.headers.authorization;
      const cookie = header === undefined && deps.sessions !== undefined ? readSessionCookie(req) : undefined;
      if (cookie !== undefined && deps.sessions !== undefined) {
        authenticateSession({ sessions: deps.sessions, fail }, cookie, req, res, next);
        return;
      }
      const presented = header === undefined ? undefined : BEARER.exec(header)?.[1];
      const key = presented === undefined ? undefined : match(presented);
      if (key === undefined) {
        fail(req, header === undefined ? 'missing' : presented === undefined ? 'malformed' : 'invalid');
        const challenge =
          presented === undefined
            ? 'Bearer realm="switchyard-admin"'
            : 'Bearer realm="switchyard-admin", error="invalid_token"';
        sendApiError(res, 401, 'unauthorized', 'a valid admin API key is required (Authorization: Bearer sy_...)', {
          'www-authenticate': challenge,
        });
        return;
      }
      res.locals.adminKey = key;
      next();
    },
    requireScope: (scope) => (req, res, next) => {
      const key = requestKey(res);
      if (key.scopes.includes(scope)) {
        next();
        return;
      }
      fail(req, 'scope', { key: key.name, scope });
      sendApiError(res, 403, 'insufficient_scope', `the key "${key.name}" lacks the "${scope}" scope`, {
        'www-authenticate': `Bearer realm="switchyard-admin", error="insufficient_scope", scope="${scope}"`,
      });
    },
  };
}
