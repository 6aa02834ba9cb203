import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER_FORM = /^sha256=[0-9a-f]{64}$/;

/** What every webhook receiver must do, as the bare server does it: the HMAC-SHA256 checked in constant time. */
export function signatureMatches(header: string | string[] | undefined, body: Buffer, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(body).digest();
  return (
    typeof header === 'string' &&
    HEADER_FORM.test(header) &&
    timingSafeEqual(Buffer.from(header.slice('sha256='.length), 'hex'), expected)
  );
}
