/**
 * An IPv4 address in any form `inet_aton` accepts (what resolvers and URL parsers turn into an address):
 * one to four parts, each decimal, octal (leading `0`) or hex (`0x`), the last part filling the remaining
 * bytes — so `2852039166`, `0251.0376.0251.0376`, `0xa9.0xfe.0xa9fe` and `169.254.43518` all are
 * 169.254.169.254. Returns the address as an unsigned 32-bit number, or undefined when it is not one.
 * See https://man7.org/linux/man-pages/man3/inet_aton.3.html
 */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    const value = parsePart(part);
    if (value === undefined) return undefined;
    values.push(value);
  }
  const last = values.pop() ?? 0;
  if (values.some((value) => value > 255)) return undefined;
  const lastBits = 8 * (4 - values.length);
  if (last >= 2 ** lastBits) return undefined;
  let address = 0;
  for (const [index, value] of values.entries()) address += value * 2 ** (24 - 8 * index);
  return address + last;
}

function parsePart(part: string): number | undefined {
  let digits = part;
  let radix = 10;
  let pattern = /^[0-9]+$/;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    pattern = /^[0-9a-f]*$/i; // `0x` alone is 0 for inet_aton
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
    pattern = /^[0-7]+$/;
  }
  if (!pattern.test(digits) || digits.length > 12) return undefined;
  return digits === '' ? 0 : parseInt(digits, radix);
}
