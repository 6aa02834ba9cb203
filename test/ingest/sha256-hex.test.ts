import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { sha256Hex, sha256HexByHashObject } from '../../src/ingest/sha256-hex.js';

it('gives the hex SHA-256, by crypto.hash and by the Hash object older Node releases fall back to', () => {
  const larger = Buffer.alloc(1 << 20, 7);
  // A body read into part of a larger buffer, as a slice of a socket's chunk can be.
  for (const body of [Buffer.alloc(0), Buffer.from('{"event":"incident.created"}'), larger, larger.subarray(5, 900)]) {
    const expected = createHash('sha256').update(body).digest('hex');
    expect(sha256Hex(body)).toBe(expected);
    expect(sha256HexByHashObject(body)).toBe(expected);
  }
});
