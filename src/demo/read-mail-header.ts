/**
 * One header of a raw RFC 5322 message, unfolded (continuation lines joined), or undefined. Enough for the
 * demo's summary of ASCII subjects; it does not decode RFC 2047 encoded words.
 */
export function readMailHeader(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const wanted = `${name.toLowerCase()}:`;
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(wanted));
  return line?.slice(wanted.length).trim();
}
