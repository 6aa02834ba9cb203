import express, { type RequestHandler, type Response, type Router } from 'express';
import type { AdminKeyConfig } from '../../config/config.js';
import { requestSession } from './authenticate-session.js';
import type { AuthRefusals } from './create-auth-refusals.js';
import type { ConsoleSession, ConsoleSessions } from './create-console-sessions.js';
import { createKeyMatcher } from './create-key-matcher.js';
import { sendApiError } from './send-api-error.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

const PATH = '/api/v1/session';
/** A key is 46 characters; the body has no reason to be larger than this. */
const BODY_LIMIT = '4kb';

/**
 * Sign-in before `authenticate` (POST: the key is in the body), the rest after it (GET gives a reloaded page its
 * CSRF token back; DELETE signs out and needs the CSRF token, as every cookie request that changes something).
 * A wrong key is refused, counted and slowed down exactly as a wrong Bearer key: the same refusals, reason
 * `invalid`, so guesses at the sign-in form and at the API share one budget per address.
 */
export function addSignInRoute(
  router: Router,
  deps: {
    readonly keys: readonly AdminKeyConfig[];
    readonly refusals: AuthRefusals;
    readonly sessions: ConsoleSessions;
  },
  noStore: RequestHandler,
): void {
  const match = createKeyMatcher(deps.keys);
  const message = 'admin console sign-in refused';
  router.post(
    PATH,
    noStore,
    (req, res, next) => {
      if (deps.keys.length === 0) {
        deps.refusals.refuse(message, req, 'disabled');
        sendApiError(res, 403, 'admin_disabled', 'admin API disabled: no keys configured (admin.keys)');
        return;
      }
      if (!deps.refusals.throttled(req, res, message)) next();
    },
    express.json({ limit: BODY_LIMIT }),
    (req, res) => {
      const presented = (req.body as { key?: unknown } | undefined)?.key;
      const key = typeof presented === 'string' ? match(presented) : undefined;
      if (key === undefined) {
        deps.refusals.refuse(message, req, typeof presented === 'string' ? 'invalid' : 'missing');
        sendApiError(res, 401, 'unauthorized', 'a valid admin API key is required: {"key":"sy_..."}');
        return;
      }
      const { token, session } = deps.sessions.open(key);
      setSessionCookie(req, res, token, Math.floor(deps.sessions.ttlMs / 1000));
      sendSession(res, session);
    },
  );
}

export function addSessionRoutes(router: Router, deps: { readonly sessions: ConsoleSessions }): void {
  const noSession = (res: Response) =>
    sendApiError(res, 401, 'unauthorized', 'no console session: this request was authenticated by a Bearer key');
  const withSession: RequestHandler = (_req, res, next) => {
    if (requestSession(res) !== undefined) next();
    else noSession(res);
  };
  router.get(PATH, (_req, res) => {
    const current = requestSession(res);
    if (current === undefined) noSession(res);
    else sendSession(res, current.session);
  });
  router.delete(PATH, withSession, (req, res) => {
    const current = requestSession(res);
    if (current !== undefined) deps.sessions.close(current.token);
    clearSessionCookie(req, res);
    res.status(204).end();
  });
}

function sendSession(res: Response, session: ConsoleSession): void {
  res.json({
    key: session.keyName,
    scopes: session.scopes,
    csrfToken: session.csrfToken,
    expiresAt: new Date(session.expiresAt).toISOString(),
  });
}
