// Binary multiples, as the `bytes` package used by express reads `1mb`: 1mb = 1 MiB = 1,048,576 bytes.
const UNIT_BYTES: Readonly<Record<string, number>> = { b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2 };
const SIZE = /^(\d+)\s*(b|kb|kib|mb|mib)?$/i;

/** Parses sizes such as `1mb`, `512kb`, `65536` into bytes; undefined when malformed. */
export function parseSize(text: string): number | undefined {
  const match = SIZE.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (UNIT_BYTES[(match[2] ?? 'b').toLowerCase()] ?? 1);
}
