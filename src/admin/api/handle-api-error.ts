import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../../log/logger.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { sendApiError } from './send-api-error.js';

// express.json() errors carry a `type`: https://github.com/expressjs/body-parser#errors
const BODY_ERRORS: Readonly<Record<string, { status: number; code: string; message: string }>> = {
  'entity.parse.failed': { status: 400, code: 'invalid_json', message: 'request body is not valid JSON' },
  'entity.too.large': { status: 413, code: 'body_too_large', message: 'request body is too large' },
};

/**
 * Errors thrown by the API's handlers as JSON: a coded SwitchyardError with a 4xx status as it is, a journal
 * that cannot answer as 503 with Retry-After, anything else as a 500 whose detail goes to the log only.
 */
export function handleApiError(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof SwitchyardError && error.status !== undefined && error.status < 500) {
      sendApiError(res, error.status, error.code, error.message);
      return;
    }
    const bodyError = BODY_ERRORS[(error as { type?: string }).type ?? ''];
    if (bodyError !== undefined) {
      sendApiError(res, bodyError.status, bodyError.code, bodyError.message);
      return;
    }
    if (error instanceof SwitchyardError && error.code === 'journal_unavailable') {
      sendApiError(res, 503, error.code, error.message, { 'retry-after': '5' });
      return;
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendApiError(res, status, 'invalid_request', 'the request could not be read');
      return;
    }
    log.error('admin API request failed', {
      method: req.method,
      path: req.originalUrl.split('?')[0],
      error: error instanceof Error ? error.message : String(error),
    });
    sendApiError(res, 500, 'internal_error', 'internal error; see the daemon log');
  };
}
