import type { IncomingMessage } from 'node:http';
import { SwitchyardError } from '../switchyard-error.js';
import type { AtTurnEnd } from './at-turn-end.js';
import type { BodyBudget } from './body-budget.js';

/** The first bytes of any body are always granted by the budget: a signed event is usually well under this. */
export const SMALL_BODY_BYTES = 16 * 1024;

/**
 * Reads a request body into one Buffer, refusing to hold more than `limit` bytes: a declared
 * Content-Length over the limit is refused before any byte is read, and a chunked body is cut off as soon
 * as it passes the limit (adnanh/webhook's read-everything-first is an open pre-auth memory DoS, #756).
 * A sender that stalls mid-body is cut off `timeoutMs` after the read began; that timer is set only for a body
 * still unread when the turn of the event loop ends: a signed event's body nearly always comes with its headers,
 * and a timer set and cleared per event cost 0.6-1.8 µs of the main thread's time at ingest (issue 11). Every
 * kept chunk is counted in `budget`, shared by all requests, and given back when the body is handed on or
 * dropped; a chunk the budget refuses ends the read with 503 `ingest_busy`, so unauthenticated bodies cannot
 * hold more memory than the budget allows.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  timeoutMs: number,
  budget: BodyBudget,
  atTurnEnd: AtTurnEnd,
): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (error: SwitchyardError | undefined): void => {
      // Once only: the budget is given back here, and a second time would let later bodies past its limit.
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      // Given back on success too: the signature is checked at once, and a valid body is then authenticated.
      budget.give(size);
      if (error) {
        req.pause();
        reject(error);
      } else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      if (size + chunk.length > limit) return finish(tooLarge(limit));
      if (!budget.take(size, chunk.length)) return finish(busy());
      size += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = (): void => finish(undefined);
    const onError = (): void =>
      finish(new SwitchyardError('body_aborted', 'the request body was not received completely', { status: 400 }));
    const onAborted = onError;
    const onTimeout = (): void =>
      finish(
        new SwitchyardError('body_timeout', `the request body was not received within ${timeoutMs} ms`, {
          status: 408,
        }),
      );
    const started = performance.now();
    atTurnEnd(() => {
      if (!finished) timer = setTimeout(onTimeout, Math.max(0, started + timeoutMs - performance.now()));
    });
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

function busy(): SwitchyardError {
  return new SwitchyardError('ingest_busy', 'too many request bodies are being received at once; retry later', {
    status: 503,
  });
}

function tooLarge(limit: number): SwitchyardError {
  return new SwitchyardError('body_too_large', `the request body exceeds the limit of ${limit} bytes`, { status: 413 });
}
