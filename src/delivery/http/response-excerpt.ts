import { EXCERPT_BYTES } from './create-http-sender.js';

/**
 * A response body as one line, whole: it is cut for the attempt record only after secrets are masked
 * (`redactDetail`), so that a secret the receiver echoed across the cut is masked whole. A body the sender
 * cut at its 4 KiB limit ends with `…`, which tells `redactDetail` to mask the start of a secret left there.
 */
export function responseExcerpt(body: Buffer): string {
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim();
  // A character split by the byte limit decodes as U+FFFD.
  return body.length >= EXCERPT_BYTES ? `${text.replace(/\uFFFD$/, '')}…` : text;
}
