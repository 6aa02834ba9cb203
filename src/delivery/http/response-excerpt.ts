import { EXCERPT_BYTES } from './create-http-sender.js';

/**
 * A response body as one line, whole: it is cut for the attempt record only after secrets are masked
 * (`redactDetail`), so that a secret the receiver echoed across the cut is masked whole. Only the first 4 KiB
 * are used (a body kept for `capture:` is longer); a longer body ends with `…`, which tells `redactDetail` to
 * mask the start of a secret left there.
 */
export function responseExcerpt(body: Buffer): string {
  const text = body.subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\s+/g, ' ').trim();
  // A character split by the byte limit decodes as U+FFFD.
  return body.length >= EXCERPT_BYTES ? `${text.replace(/\uFFFD$/, '')}…` : text;
}
