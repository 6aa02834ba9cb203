import { parseIpv6 } from '../delivery/http/parse-ipv6.js';

/**
 * The key a client's failed credentials are counted under: an IPv4 address as it is (also when it arrives
 * IPv4-mapped, `::ffff:a.b.c.d`, on a dual-stack listener), an IPv6 address by its /64, since one host is
 * routinely given a whole /64 and could otherwise step through fresh addresses for fresh free guesses.
 */
export function throttleAddress(address: string): string {
  const bytes = address.includes(':') ? parseIpv6(address) : undefined;
  if (bytes === undefined) return address;
  const mapped = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join('.');
  const groups = Array.from({ length: 4 }, (_, i) =>
    (((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0)).toString(16),
  );
  return `${groups.join(':')}::/64`;
}
