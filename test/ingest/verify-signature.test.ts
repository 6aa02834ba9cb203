import { describe, expect, it } from 'vitest';
import { parseSignatureHeader, verifySignature } from '../../src/ingest/verify-signature.js';
import { signatureVectors, VECTOR_SECRET } from '../helpers/signature-vectors.js';

describe('parseSignatureHeader', () => {
  const hex = 'a'.repeat(64);
  it('accepts exactly sha256= and 64 lowercase hex digits', () => {
    expect(parseSignatureHeader(`sha256=${hex}`)?.length).toBe(32);
  });
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no prefix', hex],
    ['other algorithm', `sha1=${hex}`],
    ['uppercase prefix', `SHA256=${hex}`],
    ['uppercase hex', `sha256=${'A'.repeat(64)}`],
    ['too short', `sha256=${'a'.repeat(63)}`],
    ['too long', `sha256=${'a'.repeat(65)}`],
    ['non-hex', `sha256=${'g'.repeat(64)}`],
    ['trailing space', `sha256=${hex} `],
  ])('refuses %s', (_what, header) => {
    expect(parseSignatureHeader(header)).toBeUndefined();
  });
});

describe('verifySignature against vectors computed by openssl', () => {
  const vectors = signatureVectors();
  it('has vectors to check', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(3);
  });
  for (const v of vectors) {
    it(`accepts ${v.name}`, () => {
      expect(verifySignature(v.body, parseSignatureHeader(v.header)!, [VECTOR_SECRET])).toBe(true);
    });
    it(`accepts ${v.name} when the matching secret is the second one (rotation)`, () => {
      expect(
        verifySignature(v.body, parseSignatureHeader(v.header)!, ['another-secret-value-123', VECTOR_SECRET]),
      ).toBe(true);
    });
    it(`refuses ${v.name} under another secret`, () => {
      expect(verifySignature(v.body, parseSignatureHeader(v.header)!, ['another-secret-value-123'])).toBe(false);
    });
    it(`refuses ${v.name} re-serialised (signature covers the exact bytes)`, () => {
      const reserialised = Buffer.from(JSON.stringify(JSON.parse(v.body.toString('utf8'))));
      if (reserialised.equals(v.body)) return; // compact bodies survive a round trip; covered by the spaced vector
      expect(verifySignature(reserialised, parseSignatureHeader(v.header)!, [VECTOR_SECRET])).toBe(false);
    });
    it(`refuses ${v.name} with one byte changed`, () => {
      const tampered = Buffer.from(v.body);
      tampered[tampered.length - 2] = (tampered[tampered.length - 2] ?? 0) ^ 1;
      expect(verifySignature(tampered, parseSignatureHeader(v.header)!, [VECTOR_SECRET])).toBe(false);
    });
  }
  it('refuses when no secret is configured', () => {
    const v = vectors[0]!;
    expect(verifySignature(v.body, parseSignatureHeader(v.header)!, [])).toBe(false);
  });
});
