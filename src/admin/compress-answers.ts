import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { RequestHandler, Response } from 'express';
import { chooseEncoding, type ContentEncoding } from './choose-encoding.js';

/** Below this, compressing saves less than its headers and work cost. */
const MIN_BYTES = 1024;
/** Text the console and scripts read: JSON answers, the page, its script and styles, SVG, metrics. */
const COMPRESSIBLE = /^(?:application\/(?:json|javascript)|text\/|image\/svg\+xml)/i;

const COMPRESS: Readonly<Record<ContentEncoding, (body: Buffer) => Buffer>> = {
  // Quality 5: most of brotli's gain at gzip's speed (11, its default, is tens of times slower).
  br: (body) =>
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => gzipSync(body, { level: 6 }),
};

type Write = Response['write'];
type End = Response['end'];

/**
 * Compresses the admin listener's answers (the console's files, the API's JSON) with br or gzip, as the
 * request's Accept-Encoding allows, and says `Vary: Accept-Encoding` so a cache keeps the versions apart. Every
 * answer here is a bounded body (a page of a listing, a built file), so it is collected and compressed whole:
 * one `Content-Length`, and nothing else to go wrong. Ranges (206), HEAD, 204/304, already-encoded and small
 * answers go as they are.
 */
export const compressAnswers: RequestHandler = (req, res, next) => {
  res.vary('Accept-Encoding');
  const encoding = chooseEncoding(req.get('accept-encoding'));
  if (encoding === undefined || req.method === 'HEAD') {
    next();
    return;
  }
  const write: Write = res.write.bind(res);
  const end: End = res.end.bind(res);
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, chunkEncoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string') {
      chunks.push(Buffer.from(chunk, typeof chunkEncoding === 'string' ? (chunkEncoding as BufferEncoding) : 'utf8'));
    } else chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  };
  res.write = ((chunk: unknown, chunkEncoding?: unknown, callback?: () => void) => {
    collect(chunk, chunkEncoding);
    const done = typeof chunkEncoding === 'function' ? chunkEncoding : callback;
    if (typeof done === 'function') queueMicrotask(done as () => void);
    return true;
  }) as Write;
  res.end = ((chunk?: unknown, chunkEncoding?: unknown, callback?: () => void) => {
    collect(chunk, chunkEncoding);
    res.write = write;
    res.end = end;
    const done = [chunk, chunkEncoding, callback].find((arg) => typeof arg === 'function') as (() => void) | undefined;
    const body = Buffer.concat(chunks);
    const packed = shouldCompress(res, body) ? COMPRESS[encoding](body) : undefined;
    if (packed === undefined || packed.length >= body.length) return end(body, done);
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', packed.length);
    // Byte ranges of the compressed answer are not offered (static files say they accept ranges).
    res.removeHeader('Accept-Ranges');
    return end(packed, done);
  }) as End;
  next();
};

function shouldCompress(res: Response, body: Buffer): boolean {
  if (res.headersSent || body.length < MIN_BYTES) return false;
  if (res.statusCode === 204 || res.statusCode === 206 || res.statusCode === 304) return false;
  if (res.getHeader('Content-Encoding') !== undefined) return false;
  return COMPRESSIBLE.test(String(res.getHeader('Content-Type') ?? ''));
}
