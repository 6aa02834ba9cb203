import { BlockList } from 'node:net';
import { embeddedIpv4 } from './embedded-ipv4.js';
import { parseIpv4 } from './parse-ipv4.js';
import { parseIpv6 } from './parse-ipv6.js';

/**
 * Link-local and cloud instance-metadata addresses: a target that reaches one of these can read the host's
 * cloud credentials (SSRF). Loopback and private ranges stay allowed on purpose — ticketing systems and
 * chat relays commonly live on private networks, and tests use 127.0.0.1.
 */
const REFUSED_IPV4: readonly (readonly [string, number])[] = [
  ['169.254.0.0', 16], // IPv4 link-local; AWS, GCP, Azure, OpenStack metadata at 169.254.169.254
  ['100.100.100.200', 32], // Alibaba Cloud metadata
  ['192.0.0.192', 32], // Oracle Cloud metadata
];
const REFUSED_IPV6: readonly (readonly [string, number])[] = [
  ['fe80::', 10], // IPv6 link-local
  ['fd00:ec2::254', 128], // AWS metadata over IPv6
  ['fd20:ce::254', 128], // Google Cloud metadata over IPv6
];

/** True when a connection to `address` must be refused. */
export type AddressGuard = (address: string) => boolean;

/**
 * Builds the check once per target. An IPv6 address is refused when it is in a refused IPv6 range or when any
 * IPv4 address it embeds (mapped, compatible, NAT64, 6to4, Teredo, ISATAP: see embeddedIpv4) is refused; an
 * IPv4 address is read in every form a resolver accepts (`2852039166`, octal, hex).
 */
export function createAddressGuard(): AddressGuard {
  const ipv4 = new BlockList();
  for (const [network, prefix] of REFUSED_IPV4) ipv4.addSubnet(network, prefix, 'ipv4');
  const ipv6 = new BlockList();
  for (const [network, prefix] of REFUSED_IPV6) ipv6.addSubnet(network, prefix, 'ipv6');
  const isRefusedIpv4 = (address: number): boolean => ipv4.check(dotted(address), 'ipv4');
  const check = (address: string): boolean => {
    const v4 = parseIpv4(address);
    if (v4 !== undefined) return isRefusedIpv4(v4);
    const v6 = parseIpv6(address);
    if (v6 === undefined) return false;
    return ipv6.check(hex(v6), 'ipv6') || embeddedIpv4(v6).some(isRefusedIpv4);
  };
  // The answer for an address never changes, and a target connects to a handful: remembered, because
  // BlockList.check builds a SocketAddress per call (about 5 µs per attempt, issue 11). Bounded, so a target
  // resolving to ever new addresses cannot grow it.
  const verdicts = new Map<string, boolean>();
  return (address) => {
    let refused = verdicts.get(address);
    if (refused === undefined) {
      refused = check(address);
      if (verdicts.size >= 256) verdicts.clear();
      verdicts.set(address, refused);
    }
    return refused;
  };
}

function dotted(address: number): string {
  return [24, 16, 8, 0].map((shift) => (address >>> shift) & 0xff).join('.');
}

function hex(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2)
    groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
  return groups.join(':');
}
