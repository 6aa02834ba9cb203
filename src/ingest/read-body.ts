import type { IncomingMessage } from 'node:http';
import { SwitchyardError } from '../switchyard-error.js';

/**
 * Reads a request body into one Buffer, refusing to hold more than `limit` bytes: a declared
 * Content-Length over the limit is refused before any byte is read, and a chunked body is cut off as soon
 * as it passes the limit (adnanh/webhook's read-everything-first is an open pre-auth memory DoS, #756).
 * A sender that stalls mid-body is cut off after `timeoutMs`.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: SwitchyardError | undefined): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      if (error) {
        req.pause();
        reject(error);
      } else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(undefined);
    const onError = (): void =>
      finish(new SwitchyardError('body_aborted', 'the request body was not received completely', { status: 400 }));
    const onAborted = onError;
    const timer = setTimeout(
      () =>
        finish(
          new SwitchyardError('body_timeout', `the request body was not received within ${timeoutMs} ms`, {
            status: 408,
          }),
        ),
      timeoutMs,
    );
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

function tooLarge(limit: number): SwitchyardError {
  return new SwitchyardError('body_too_large', `the request body exceeds the limit of ${limit} bytes`, { status: 413 });
}
