import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER_FORM = /^sha256=[0-9a-f]{64}$/;

/**
 * Decodes `X-Service-Signature: sha256=<64 lowercase hex>` into the 32 digest bytes, or returns undefined
 * when the header is missing or not exactly that form (no prefix, wrong length, uppercase, non-hex). The
 * form is checked before the body is read, so a sender without a plausible signature costs us nothing.
 */
export function parseSignatureHeader(header: string | undefined): Buffer | undefined {
  if (header === undefined || !HEADER_FORM.test(header)) return undefined;
  return Buffer.from(header.slice('sha256='.length), 'hex');
}

/**
 * True when `signature` is the HMAC-SHA256 of the exact received bytes under any active secret. Compared
 * with `timingSafeEqual` over equal-length digests (octokit/webhooks.js does the same), and every secret is
 * tried so the time taken does not reveal which one matched.
 */
export function verifySignature(body: Buffer, signature: Buffer, secrets: readonly string[]): boolean {
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(body).digest();
    if (expected.length === signature.length && timingSafeEqual(expected, signature)) matched = true;
  }
  return matched;
}
