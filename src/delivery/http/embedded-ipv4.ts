/**
 * Every IPv4 address an IPv6 address may carry to its destination, as unsigned 32-bit numbers: a connection to
 * one of these forms can end up at the IPv4 address (through the host's own stack, a NAT64 gateway, a 6to4 or
 * Teredo relay), so the guard must judge the IPv4 address too.
 */
export function embeddedIpv4(bytes: Uint8Array): number[] {
  const at = (...indexes: number[]): number =>
    indexes.reduce((address, index) => address * 256 + (bytes[index] ?? 0), 0);
  const startsWith = (...prefix: number[]): boolean => prefix.every((value, index) => bytes[index] === value);
  const zeros = (from: number, to: number): boolean => bytes.subarray(from, to).every((value) => value === 0);
  const found: number[] = [];
  const last32 = at(12, 13, 14, 15);

  // ::a.b.c.d (IPv4-compatible, RFC 4291 §2.5.5.1), ::ffff:a.b.c.d (IPv4-mapped, §2.5.5.2),
  // ::ffff:0:a.b.c.d (SIIT, RFC 2765 §2.1).
  if (zeros(0, 10) && ((bytes[10] === 0 && bytes[11] === 0) || (bytes[10] === 0xff && bytes[11] === 0xff))) {
    found.push(last32);
  }
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) found.push(last32);
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 §2.1).
  if (startsWith(0, 0x64, 0xff, 0x9b) && zeros(4, 12)) found.push(last32);
  // NAT64 local-use prefix 64:ff9b:1::/48 (RFC 8215), used with a network-specific prefix of /48 or longer.
  // RFC 6052 §2.2 places the IPv4 address after the prefix and skips bits 64-71 (the "u" octet), so where it
  // sits depends on the prefix length, which the guard cannot know: every allowed length is checked.
  if (startsWith(0, 0x64, 0xff, 0x9b, 0, 1)) {
    found.push(at(6, 7, 9, 10)); // /48
    found.push(at(7, 9, 10, 11)); // /56
    found.push(at(9, 10, 11, 12)); // /64
    found.push(last32); // /96
  }
  // 6to4 2002:a.b.c.d::/48 (RFC 3056 §2).
  if (startsWith(0x20, 0x02)) found.push(at(2, 3, 4, 5));
  // Teredo 2001:0::/32: the client's address is the last 32 bits, inverted (RFC 4380 §4).
  if (startsWith(0x20, 0x01, 0, 0)) found.push((last32 ^ 0xffffffff) >>> 0);
  // ISATAP interface identifier ::0:5efe:a.b.c.d / ::200:5efe:a.b.c.d under any /64 (RFC 5214 §6.1).
  if ((bytes[8] === 0 || bytes[8] === 2) && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe) {
    found.push(last32);
  }
  return found;
}
