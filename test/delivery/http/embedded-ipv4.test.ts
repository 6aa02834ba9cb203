import { describe, expect, it } from 'vitest';
import { embeddedIpv4 } from '../../../src/delivery/http/embedded-ipv4.js';
import { parseIpv6 } from '../../../src/delivery/http/parse-ipv6.js';

const dotted = (address: number): string => [24, 16, 8, 0].map((shift) => (address >>> shift) & 0xff).join('.');
const embedded = (text: string): string[] => embeddedIpv4(parseIpv6(text) ?? new Uint8Array(16)).map(dotted);

describe('embeddedIpv4', () => {
  it.each([
    ['::ffff:169.254.169.254', ['169.254.169.254']],
    ['::169.254.169.254', ['169.254.169.254']],
    ['::ffff:0:169.254.169.254', ['169.254.169.254']],
    ['64:ff9b::6464:64c8', ['100.100.100.200']],
    ['2002:c000:c0::1', ['192.0.0.192']],
    ['2001:0:4136:e378:8000:63bf:3fff:ff3f', ['192.0.0.192']],
    ['2001:db8::5efe:a9fe:a9fe', ['169.254.169.254']],
    ['2001:db8::1', []],
  ])('finds what %s carries', (text, expected) => {
    expect(embedded(text)).toEqual(expected);
  });

  it('reads 64:ff9b:1::/48 at every RFC 6052 position of a /48 or longer prefix, skipping the u octet (bits 64-71)', () => {
    // The /48 form of 100.100.100.200: 64:ff9b:1:<6464>:<u=00><64>:<c8>00:: -- the address is split around the u octet.
    expect(embedded('64:ff9b:1:6464:64:c800::')).toEqual([
      '100.100.100.200', // /48: bits 48-63, then 72-87
      '100.100.200.0', // /56 reading of the same bits
      '100.200.0.0', // /64
      '0.0.0.0', // /96
    ]);
    expect(embedded('64:ff9b:1:64:64:64c8::')[1]).toBe('100.100.100.200'); // /56: bits 56-63, then 72-95
    expect(embedded('64:ff9b:1:0:64:6464:c800:0')[2]).toBe('100.100.100.200'); // /64: bits 72-103
    expect(embedded('64:ff9b:1::6464:64c8')[3]).toBe('100.100.100.200'); // /96: the last 32 bits
  });
});
