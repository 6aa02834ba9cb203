import { randomFillSync } from 'node:crypto';

// Crockford's base32 (no I, L, O, U), as the ULID spec requires: https://github.com/ulid/spec
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_TIME = 2 ** 48 - 1;
const RANDOM_BYTES = 10;

// Entropy fetched in blocks, as Node's own crypto.randomUUID() does: one randomBytes() call per id cost ~2.7 µs
// on the project machine, five times the rest of newId(). Private to this module; callers share no state.
const pool = Buffer.alloc(RANDOM_BYTES * 256);
let poolOffset = pool.length;
function pooledRandom(bytes: number): Buffer {
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += bytes;
  return pool.subarray(poolOffset - bytes, poolOffset);
}

/**
 * A prefixed ULID: `newId('evt_', now)` gives e.g. `evt_01JDQ3V5W8X9Y0Z1A2B3C4D5E6`, the prefix as given,
 * then 10 characters of millisecond time and 16 of randomness. Ids sort by time across milliseconds
 * (lexicographic order = time order), which keeps the journal's primary-key indexes append-mostly; ids from
 * the same millisecond are in random order (no monotonic counter, so callers share no state).
 */
export function newId(prefix: string, nowMs: number, random: (bytes: number) => Buffer = pooledRandom): string {
  // Ids appear in URLs, logs and JSON answers: keep the prefix to characters that need no escaping anywhere.
  if (!/^[a-z0-9_]*$/.test(prefix)) {
    throw new RangeError(`id prefix may hold only a-z, 0-9 and _, got ${JSON.stringify(prefix)}`);
  }
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_TIME) {
    throw new RangeError(`id time must be an integer between 0 and 2^48-1 ms, got ${nowMs}`);
  }
  const bytes = random(RANDOM_BYTES);
  if (bytes.length !== RANDOM_BYTES) throw new RangeError(`random source returned ${bytes.length} bytes, expected 10`);
  return `${prefix}${encodeTime(nowMs)}${encodeRandom(bytes)}`;
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

// 80 bits = exactly 16 five-bit characters, most significant first.
function encodeRandom(bytes: Buffer): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET.charAt((acc >> bits) & 31);
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}
