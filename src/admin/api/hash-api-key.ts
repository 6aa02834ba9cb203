import { createHash } from 'node:crypto';

export const API_KEY_HASH_PREFIX = 'sha256:';

/**
 * The SHA-256 digest of an admin API key. A fast hash is right here, unlike for passwords: `switchyard keys new`
 * makes keys of 32 random bytes (256 bits), so a leaked config gives an attacker nothing to guess — a slow hash
 * (scrypt, argon2) only protects low-entropy secrets from offline guessing. A slow hash would also cost every
 * request, including each unauthenticated one, tens of milliseconds of CPU: a lever for denial of service.
 * https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html
 */
export function apiKeyDigest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** `sha256:<64 lowercase hex>`, as the config's `admin.keys[].hash` holds it. */
export function hashApiKey(key: string): string {
  return `${API_KEY_HASH_PREFIX}${apiKeyDigest(key).toString('hex')}`;
}
