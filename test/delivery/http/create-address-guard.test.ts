import { describe, expect, it } from 'vitest';
import { createAddressGuard } from '../../../src/delivery/http/create-address-guard.js';

describe('createAddressGuard', () => {
  const isRefused = createAddressGuard();

  it.each([
    '169.254.169.254',
    '169.254.0.1',
    '169.254.255.255',
    '100.100.100.200',
    '192.0.0.192',
    'fe80::1',
    'fe80::1%eth0',
    'febf:ffff::1',
    'fd00:ec2::254',
    'fd20:ce::254',
    'FD00:EC2:0:0:0:0:0:254',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::169.254.169.254',
  ])('refuses %s', (address) => {
    expect(isRefused(address)).toBe(true);
  });

  // Each metadata address the guard knows, in every embedding an IPv6 address can carry it in, and in the
  // numeric forms a resolver accepts.
  it.each([
    // from the issue: 100.100.100.200 through the NAT64 well-known prefix
    ['64:ff9b::6464:64c8', '100.100.100.200, NAT64 64:ff9b::/96'],
    ['64:ff9b::100.100.100.200', '100.100.100.200, NAT64 /96 dotted'],
    ['64:ff9b::c000:c0', '192.0.0.192, NAT64 /96'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254, NAT64 /96'],
    // RFC 8215 local-use prefix, at each RFC 6052 position for prefixes of /48 and longer (u octet skipped)
    ['64:ff9b:1:a9fe:a9:fe00::', '169.254.169.254, 64:ff9b:1::/48'],
    ['64:ff9b:1:6464:64:c800::', '100.100.100.200, 64:ff9b:1::/48'],
    ['64:ff9b:1:c000:0:c000::', '192.0.0.192, 64:ff9b:1::/48'],
    ['64:ff9b:1:a9:fe:a9fe::', '169.254.169.254, /56 inside 64:ff9b:1::/48'],
    ['64:ff9b:1:64:64:64c8::', '100.100.100.200, /56'],
    ['64:ff9b:1:0:a9:fea9:fe00:0', '169.254.169.254, /64'],
    ['64:ff9b:1:0:c0:0:c000:0', '192.0.0.192, /64'],
    ['64:ff9b:1::6464:64c8', '100.100.100.200, /96'],
    ['64:ff9b:1:ffff::c000:c0', '192.0.0.192, /96 with a subnet id'],
    // IPv4-mapped, IPv4-compatible, SIIT
    ['::ffff:6464:64c8', '100.100.100.200, IPv4-mapped hex'],
    ['::ffff:192.0.0.192', '192.0.0.192, IPv4-mapped dotted'],
    ['::ffff:c000:c0', '192.0.0.192, IPv4-mapped hex'],
    ['::169.254.169.254', '169.254.169.254, IPv4-compatible'],
    ['::6464:64c8', '100.100.100.200, IPv4-compatible'],
    ['::c000:c0', '192.0.0.192, IPv4-compatible'],
    ['::ffff:0:a9fe:a9fe', '169.254.169.254, SIIT'],
    ['::ffff:0:100.100.100.200', '100.100.100.200, SIIT'],
    // 6to4, Teredo (client address inverted), ISATAP
    ['2002:a9fe:a9fe::1', '169.254.169.254, 6to4'],
    ['2002:6464:64c8:1::', '100.100.100.200, 6to4'],
    ['2002:c000:c0::', '192.0.0.192, 6to4'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', '169.254.169.254, Teredo client'],
    ['2001:0:4136:e378:8000:63bf:9b9b:9b37', '100.100.100.200, Teredo client'],
    ['2001:0:4136:e378:8000:63bf:3fff:ff3f', '192.0.0.192, Teredo client'],
    ['2001:db8::5efe:169.254.169.254', '169.254.169.254, ISATAP'],
    ['2001:db8::200:5efe:6464:64c8', '100.100.100.200, ISATAP'],
    // numeric IPv4 forms (inet_aton)
    ['2852039166', '169.254.169.254 as one number'],
    ['0251.0376.0251.0376', '169.254.169.254 in octal'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254 in hex'],
    ['0xa9fea9fe', '169.254.169.254 as one hex number'],
    ['169.254.43518', '169.254.169.254, three parts'],
    ['1684301000', '100.100.100.200 as one number'],
    ['100.100.100.0310', '100.100.100.200, octal last part'],
    ['0300.0.0.0300', '192.0.0.192 in octal'],
    ['192.192', '192.0.0.192, two parts'],
  ])('refuses %s (%s)', (address) => {
    expect(isRefused(address)).toBe(true);
  });

  // Loopback and private networks are where ticketing systems and test receivers live.
  it.each([
    '127.0.0.1',
    '10.0.0.5',
    '172.16.3.4',
    '192.168.1.10',
    '100.100.100.201',
    '192.0.0.193',
    '169.253.255.255',
    '170.254.0.1',
    '::1',
    'fd00:ec2::253',
    'fc00::1',
    'fec0::1',
    '::ffff:10.0.0.1',
    '2001:db8::1',
    'not an address',
    '64:ff9b::a00:1',
    '64:ff9b::6464:64c9',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:6464:64:c900::',
    '2002:c0a8:101::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo client 8.8.8.8
    '2001:db8::5efe:10.0.0.1',
    '0x7f.1',
    '2130706433',
    '1.2.3.4.5',
    '0x1.0x100.1.1',
    '0999.1.1.1',
  ])('allows %s', (address) => {
    expect(isRefused(address)).toBe(false);
  });
});
