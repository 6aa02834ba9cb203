import type { Request } from 'express';
import type { Logger } from '../../log/logger.js';
import type { Metrics } from '../metrics.js';

export const AUTH_FAILURES_METRIC = 'switchyard_admin_auth_failures_total';

/** Why a request to an admin surface was refused: a fixed set, so requests cannot grow the series. */
export type AuthFailureReason = 'missing' | 'malformed' | 'invalid' | 'scope' | 'disabled';

/**
 * Counts and logs one refused request to an admin surface (the admin API or /metrics), in one metric, so
 * that guessing shows in one place whichever surface is probed. The log names the method, path, peer and
 * reason, never the presented credential.
 */
export function recordAuthFailure(
  deps: { readonly log: Logger; readonly metrics: Metrics },
  message: string,
  req: Request,
  reason: AuthFailureReason,
  fields: Record<string, unknown> = {},
): void {
  deps.metrics.increment(AUTH_FAILURES_METRIC, { reason });
  deps.log.warn(message, {
    reason,
    method: req.method,
    path: req.originalUrl.split('?')[0],
    peer: req.socket.remoteAddress,
    ...fields,
  });
}
