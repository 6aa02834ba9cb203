import { describe, expect, it } from 'vitest';
import { parseIpv4 } from '../../../src/delivery/http/parse-ipv4.js';

describe('parseIpv4', () => {
  it.each([
    ['169.254.169.254', 0xa9fea9fe],
    ['2852039166', 0xa9fea9fe],
    ['0251.0376.0251.0376', 0xa9fea9fe],
    ['0xA9.0xfe.0xa9.0xfe', 0xa9fea9fe],
    ['169.254.43518', 0xa9fea9fe],
    ['169.16689662', 0xa9fea9fe],
    ['0', 0],
    ['0x', 0],
    ['255.255.255.255', 0xffffffff],
  ])('reads %s', (text, value) => {
    expect(parseIpv4(text)).toBe(value);
  });

  it.each(['', '1.', '256.1.1.1', '1.2.3.256', '4294967296', '08.1.1.1', '1.2.3.4.5', '0xg.1.1.1', '::1', 'a.b', '-1'])(
    'rejects %j',
    (text) => {
      expect(parseIpv4(text)).toBeUndefined();
    },
  );
});
