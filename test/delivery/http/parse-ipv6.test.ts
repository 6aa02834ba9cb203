import { describe, expect, it } from 'vitest';
import { parseIpv6 } from '../../../src/delivery/http/parse-ipv6.js';

const hex = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString('hex');

describe('parseIpv6', () => {
  it.each([
    ['::', '00000000000000000000000000000000'],
    ['::1', '00000000000000000000000000000001'],
    ['fe80::1%eth0', 'fe800000000000000000000000000001'],
    ['64:ff9b::100.100.100.200', '0064ff9b0000000000000000646464c8'],
    ['FD00:EC2:0:0:0:0:0:254', 'fd000ec2000000000000000000000254'],
    ['1:2:3:4:5:6:7::', '00010002000300040005000600070000'],
    ['::ffff:0:a9fe:a9fe', '0000000000000000ffff0000a9fea9fe'],
  ])('reads %s', (text, bytes) => {
    expect(hex(parseIpv6(text))).toBe(bytes);
  });

  it.each(['', '1:2', '1::2::3', '1:2:3:4:5:6:7:8:9', '::12345', 'g::1', '1.2.3.4', '::1.2.3', '1:2:3:4:5:6:7:8::'])(
    'rejects %j',
    (text) => {
      expect(parseIpv6(text)).toBeUndefined();
    },
  );
});
