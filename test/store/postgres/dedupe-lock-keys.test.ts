import { describe, expect, it } from 'vitest';
import { dedupeLockKeys } from '../../../src/store/postgres/dedupe-lock-keys.js';
import { makeIngestItem } from '../make-ingest-item.js';

describe('dedupeLockKeys', () => {
  it('gives one signed 64-bit key per (source, body hash), sorted, the same in every process', () => {
    const a = makeIngestItem({ body: '{"a":1}' });
    const keys = dedupeLockKeys('s', [a, makeIngestItem({ body: '{"b":1}' }), makeIngestItem({ body: '{"a":1}' })]);
    expect(keys).toHaveLength(2);
    expect([...keys].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1))).toEqual(keys);
    for (const key of keys) expect(BigInt.asIntN(64, BigInt(key))).toBe(BigInt(key));
    expect(dedupeLockKeys('s', [a])).toEqual([dedupeLockKeys('s', [a, a])[0]]);
  });

  it('separates sources and schemas', () => {
    const item = makeIngestItem({ body: '{"a":1}' });
    const other = makeIngestItem({ body: '{"a":1}', source: 'edr' });
    expect(dedupeLockKeys('s', [item])).not.toEqual(dedupeLockKeys('s', [other]));
    expect(dedupeLockKeys('s', [item])).not.toEqual(dedupeLockKeys('t', [item]));
  });
});
