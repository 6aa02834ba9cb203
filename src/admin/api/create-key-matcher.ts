import { timingSafeEqual } from 'node:crypto';
import type { AdminKeyConfig } from '../../config/config.js';
import { API_KEY_HASH_PREFIX, apiKeyDigest } from './hash-api-key.js';

/**
 * Finds the configured key a presented key belongs to, in constant time: the presented key is hashed first,
 * so every comparison is between two 32-byte digests whatever was sent (timingSafeEqual throws on unequal
 * lengths), and every configured key is compared, with no early exit on a match.
 */
export function createKeyMatcher(keys: readonly AdminKeyConfig[]): (presented: string) => AdminKeyConfig | undefined {
  const expected = keys.map((key) => {
    // The config schema checks this form; a hand-built key list gets the same guarantee here.
    if (!/^sha256:[0-9a-f]{64}$/.test(key.hash)) throw new RangeError(`admin key "${key.name}": malformed hash`);
    return { key, digest: Buffer.from(key.hash.slice(API_KEY_HASH_PREFIX.length), 'hex') };
  });
  return (presented) => {
    const digest = apiKeyDigest(presented);
    let found: AdminKeyConfig | undefined;
    for (const candidate of expected) {
      if (timingSafeEqual(digest, candidate.digest) && found === undefined) found = candidate.key;
    }
    return found;
  };
}
