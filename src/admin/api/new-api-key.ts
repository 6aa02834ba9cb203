import { randomBytes } from 'node:crypto';
import { hashApiKey } from './hash-api-key.js';

/** Every key starts with this, so leaked keys are easy to find (secret scanners, `grep -r sy_`). */
export const API_KEY_PREFIX = 'sy_';
const KEY_BYTES = 32;

/** A new admin API key (`sy_` + 43 base64url characters of 32 random bytes) and the hash the config stores. */
export function newApiKey(random: (bytes: number) => Buffer = randomBytes): { key: string; hash: string } {
  const bytes = random(KEY_BYTES);
  if (bytes.length !== KEY_BYTES) throw new RangeError(`random source returned ${bytes.length} bytes, expected 32`);
  const key = `${API_KEY_PREFIX}${bytes.toString('base64url')}`;
  return { key, hash: hashApiKey(key) };
}
