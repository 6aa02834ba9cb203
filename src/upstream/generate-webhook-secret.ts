import { randomBytes } from 'node:crypto';

/**
 * A new HMAC secret for a webhook subscription: 32 random bytes (256 bits, the key size HMAC-SHA256 is built
 * for), as 64 lowercase hex digits, so that it needs no quoting in an env file, a YAML file or a shell.
 */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}
