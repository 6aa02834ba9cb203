import type { Request, Response } from 'express';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../log/logger.js';
import { createAuthThrottle, DEFAULT_AUTH_THROTTLE, type AuthThrottleOptions } from '../auth-throttle.js';
import type { Metrics } from '../metrics.js';
import { throttleAddress } from '../throttle-address.js';
import { createRefusalLogLimit, DEFAULT_REFUSAL_LOG_LIMIT, type RefusalLogLimitOptions } from '../refusal-log-limit.js';
import { sendApiError } from './send-api-error.js';

export const AUTH_FAILURES_METRIC = 'switchyard_admin_auth_failures_total';

/** Why a request to an admin surface was refused: a fixed set, so requests cannot grow the series. */
// `session`: a console cookie that is unknown, expired or revoked; `csrf`: a cookie request without its CSRF
// token. Neither counts against the address: a session token is 256 random bits, not worth guessing.
export type AuthFailureReason =
  'missing' | 'malformed' | 'invalid' | 'scope' | 'disabled' | 'throttled' | 'session' | 'csrf';

/**
 * The refusals of every admin surface (the admin API, /metrics, /readyz details), in one place: one failure
 * count per address, so guessing is slowed down whichever surface is probed, one metric, and one log budget.
 */
export interface AuthRefusals {
  /**
   * Answers 429 with Retry-After, and returns true, when the request's address failed too often: the caller
   * then checks no credential, the right one included, so guessing gets no answer while the address waits.
   */
  throttled(req: Request, res: Response, message: string): boolean;
  /** Counts and logs (within the log budget) one refused request; a wrong credential counts against its address. */
  refuse(message: string, req: Request, reason: AuthFailureReason, fields?: Record<string, unknown>): void;
  /** Logs the summary of the open log window, if anything was left out; for shutdown. */
  close(): void;
}

/**
 * Built once per daemon. Refusals are always counted in the metric; the log gets at most one line per address
 * per window and a capped number per window, then one "refusals not logged" line with the count when the
 * window closes. The address is the TCP peer (no X-Forwarded-For: it would let a client choose its own),
 * counted by `throttleAddress`. A valid credential does not clear the count: a key holder could otherwise
 * interleave guesses at the admin token with good requests; failures expire `forgetAfterMs` after the last.
 */
export function createAuthRefusals(deps: {
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly clock: Clock;
  readonly throttle?: AuthThrottleOptions | undefined;
  readonly logLimit?: RefusalLogLimitOptions | undefined;
}): AuthRefusals {
  const throttle = createAuthThrottle(deps.clock, deps.throttle ?? DEFAULT_AUTH_THROTTLE);
  const logLimit = deps.logLimit ?? DEFAULT_REFUSAL_LOG_LIMIT;
  const limit = createRefusalLogLimit(logLimit);
  let timer: NodeJS.Timeout | undefined;
  const closeWindow = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const left = limit.close();
    if (left > 0) deps.log.warn('admin refusals not logged', { count: left, window_ms: logLimit.intervalMs });
  };
  const peer = (req: Request): string => throttleAddress(req.socket.remoteAddress ?? 'unknown');
  const refuse: AuthRefusals['refuse'] = (message, req, reason, fields = {}) => {
    deps.metrics.increment(AUTH_FAILURES_METRIC, { reason });
    if (reason === 'invalid') throttle.failed(peer(req));
    // The window's timer must not keep a stopping process alive.
    if (!limit.isOpen()) timer = setTimeout(closeWindow, logLimit.intervalMs).unref();
    if (!limit.admit(peer(req))) return;
    // Method, path, peer and reason; never the presented credential.
    deps.log.warn(message, {
      reason,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      peer: req.socket.remoteAddress,
      ...fields,
    });
  };
  return {
    throttled(req, res, message) {
      const wait = throttle.waitMs(peer(req));
      if (wait === 0) return false;
      const seconds = Math.ceil(wait / 1000);
      refuse(message, req, 'throttled', { retry_after_s: seconds });
      sendApiError(
        res,
        429,
        'too_many_failures',
        `too many wrong credentials from this address: try again in ${seconds} s`,
        { 'retry-after': String(seconds) },
      );
      return true;
    },
    refuse,
    close: closeWindow,
  };
}
