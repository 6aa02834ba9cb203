import { createHmac } from 'node:crypto';

/**
 * `X-Switchyard-Signature` value: the scheme Switchyard itself verifies on ingest, so a receiver can check it
 * the same way (HMAC-SHA256 over the exact bytes sent, lowercase hex).
 */
export function signBody(body: Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
