/** Characters of a response body kept in an attempt's record. */
const EXCERPT_CHARS = 200;

/** The start of a response body as one short line, for the attempt record and the dead-letter reason. */
export function responseExcerpt(body: Buffer): string {
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}
