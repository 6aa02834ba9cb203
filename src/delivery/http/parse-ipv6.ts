import { isIPv4 } from 'node:net';

/**
 * The 16 bytes of an IPv6 address in any text form (`::` compression, a trailing dotted IPv4 part, a zone id
 * such as `%eth0`, any letter case), or undefined when the text is not one.
 */
export function parseIpv6(text: string): Uint8Array | undefined {
  const address = text.replace(/%.*$/, '');
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (const [index, group] of all.entries()) {
    bytes[2 * index] = group >> 8;
    bytes[2 * index + 1] = group & 0xff;
  }
  return bytes;
}

/** 16-bit groups; a dotted IPv4 address is allowed as the last one and counts as two. */
function groups(text: string): number[] | undefined {
  if (text === '') return [];
  const parts = text.split(':');
  const result: number[] = [];
  for (const [index, part] of parts.entries()) {
    if (index === parts.length - 1 && isIPv4(part)) {
      const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
      result.push((a << 8) | b, (c << 8) | d);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      result.push(parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return result;
}
