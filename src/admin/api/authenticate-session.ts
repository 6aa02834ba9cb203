import type { NextFunction, Request, Response } from 'express';
import type { AdminKeyConfig } from '../../config/config.js';
import type { AuthFailureReason } from './create-auth-refusals.js';
import type { ConsoleSession, ConsoleSessions, SessionEnd } from './create-console-sessions.js';
import { sendApiError } from './send-api-error.js';
import { clearSessionCookie } from './session-cookie.js';

/** Methods that change nothing: the only ones a cookie request may make without its CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** What the page tells the person whose session ended: a restart is not a changed key. */
const ENDED: Readonly<Record<SessionEnd, string>> = {
  unknown:
    'the daemon does not know this console session: it restarted since the sign-in (sessions live in its memory), or the session was signed out',
  expired: 'the console session expired',
  revoked: 'the console session was revoked: the key that signed in was rotated or removed',
};

/** The console session of this request (set by `authenticate` when the cookie authenticated it). */
export function requestSession(res: Response): { token: string; session: ConsoleSession } | undefined {
  return res.locals.consoleSession as { token: string; session: ConsoleSession } | undefined;
}

/**
 * A request carrying the console's cookie: its session must be live, and a state-changing request must also
 * carry the session's CSRF token in `X-CSRF-Token`. SameSite=Strict already keeps other sites' requests from
 * carrying the cookie; the token is the second lock (an older browser, a sibling subdomain's page). The key the
 * session stands for then goes through `requireScope` as a Bearer key would.
 */
export function authenticateSession(
  deps: {
    readonly sessions: ConsoleSessions;
    readonly fail: (req: Request, reason: AuthFailureReason) => void;
  },
  token: string,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  const session = deps.sessions.find(token);
  if (typeof session === 'string') {
    deps.fail(req, 'session');
    clearSessionCookie(req, res);
    sendApiError(res, 401, 'unauthorized', ENDED[session]);
    return;
  }
  if (!SAFE_METHODS.has(req.method) && !deps.sessions.csrfMatches(session, req.get('x-csrf-token'))) {
    deps.fail(req, 'csrf');
    sendApiError(res, 403, 'csrf_token_invalid', 'a request made with the console session needs its X-CSRF-Token');
    return;
  }
  const key: AdminKeyConfig = { name: session.keyName, hash: session.keyHash, scopes: session.scopes };
  res.locals.adminKey = key;
  res.locals.consoleSession = { token, session };
  next();
}
