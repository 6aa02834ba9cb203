import { describe, expect, it } from 'vitest';
import { bodyFormatError } from '../../src/ingest/body-format-error.js';

const codeOf = (contentType: string | undefined, contentEncoding?: string): string | undefined => {
  const error = bodyFormatError(contentType, contentEncoding);
  if (error !== undefined) expect(error.status).toBe(415);
  return error?.code;
};

describe('bodyFormatError', () => {
  it.each([
    ['application/json', undefined],
    ['Application/JSON', undefined],
    ['application/json; charset=utf-8', undefined],
    ['application/json;charset=UTF-8', undefined],
    ['application/json; charset="utf-8"', undefined],
    ['application/json; charset=utf8', undefined],
    ['application/json; foo=bar', undefined],
    ['application/json', 'identity'],
    ['application/json', 'Identity'],
    ['application/json', ''],
  ])('accepts %s with Content-Encoding %s', (contentType, contentEncoding) => {
    expect(codeOf(contentType, contentEncoding)).toBeUndefined();
  });

  it.each([
    [undefined, 'unsupported_media_type'],
    ['text/plain', 'unsupported_media_type'],
    ['application/json-seq', 'unsupported_media_type'],
    ['application/json; charset=utf-16', 'unsupported_media_type'],
    ['application/json; charset="UTF-16LE"', 'unsupported_media_type'],
    ['application/json; charset=iso-8859-1', 'unsupported_media_type'],
    ['application/json; charset=', 'unsupported_media_type'],
  ])('refuses Content-Type %s', (contentType, code) => {
    expect(codeOf(contentType)).toBe(code);
  });

  it.each(['gzip', 'br', 'deflate', 'x-gzip', 'identity, gzip', 'GZIP'])('refuses Content-Encoding %s', (coding) => {
    expect(codeOf('application/json', coding)).toBe('unsupported_content_encoding');
    expect(codeOf('application/json; charset=utf-8', coding)).toBe('unsupported_content_encoding');
  });

  it('says what is wrong, quoting at most a little of the header', () => {
    expect(bodyFormatError('application/json; charset=utf-16', undefined)?.message).toMatch(/charset=utf-16.*UTF-8/);
    expect(bodyFormatError('application/json', `gzip${'x'.repeat(1000)}`)?.message.length).toBeLessThan(150);
  });
});
