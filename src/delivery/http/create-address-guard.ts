import { BlockList, isIP } from 'node:net';

/**
 * Link-local and cloud instance-metadata addresses: a target that reaches one of these can read the host's
 * cloud credentials (SSRF). Loopback and private ranges stay allowed on purpose — ticketing systems and
 * chat relays commonly live on private networks, and tests use 127.0.0.1.
 */
const REFUSED_SUBNETS: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[] = [
  ['169.254.0.0', 16, 'ipv4'], // IPv4 link-local; AWS, GCP, Azure, OpenStack metadata at 169.254.169.254
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud metadata
  ['192.0.0.192', 32, 'ipv4'], // Oracle Cloud metadata
  ['fe80::', 10, 'ipv6'], // IPv6 link-local
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6
  ['fd20:ce::254', 128, 'ipv6'], // Google Cloud metadata over IPv6
  ['64:ff9b::a9fe:0', 112, 'ipv6'], // 169.254.0.0/16 through the NAT64 well-known prefix
];

/** True when a connection to `address` must be refused. */
export type AddressGuard = (address: string) => boolean;

/**
 * Builds the check once per target. `BlockList` also matches IPv4-mapped IPv6 forms
 * (`::ffff:169.254.169.254`, `::ffff:a9fe:a9fe`) against the IPv4 rules, and ignores zone ids (`fe80::1%eth0`).
 */
export function createAddressGuard(): AddressGuard {
  const refused = new BlockList();
  for (const [network, prefix, family] of REFUSED_SUBNETS) refused.addSubnet(network, prefix, family);
  return (address) => {
    const version = isIP(address);
    if (version === 0) return false;
    return refused.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}
