/** What the admin listener compresses with, in order of preference (brotli is smaller for the same work). */
export type ContentEncoding = 'br' | 'gzip';
const PREFERRED: readonly ContentEncoding[] = ['br', 'gzip'];

/**
 * The encoding to answer with for an `Accept-Encoding` header (RFC 9110 section 12.5.3): br, else gzip, when
 * the client accepts it with a q-value above 0 (by name or by `*`); undefined means the answer goes as it is.
 */
export function chooseEncoding(header: string | undefined): ContentEncoding | undefined {
  if (header === undefined) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (name === '') continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  let best: ContentEncoding | undefined;
  for (const encoding of PREFERRED) {
    if (weightOf(encoding) > 0 && (best === undefined || weightOf(encoding) > weightOf(best))) best = encoding;
  }
  return best;
}
