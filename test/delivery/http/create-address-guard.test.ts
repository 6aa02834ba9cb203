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
  ])('allows %s', (address) => {
    expect(isRefused(address)).toBe(false);
  });
});
