import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { sha256Hex } from '../../src/ingest/sha256-hex.js';

it('gives the hex SHA-256 a Hash object gives, for an empty body and a large one', () => {
  for (const body of [Buffer.alloc(0), Buffer.from('{"event":"incident.created"}'), Buffer.alloc(1 << 20, 7)]) {
    expect(sha256Hex(body)).toBe(createHash('sha256').update(body).digest('hex'));
  }
});
