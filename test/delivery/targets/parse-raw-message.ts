/** A received message read back for assertions: unfolded headers (all values per name) and the decoded body. */
export interface ParsedMessage {
  readonly headerLines: readonly string[];
  header(name: string): string | undefined;
  headers(name: string): string[];
  /** The text/plain part, transfer-decoded. */
  readonly text: string;
  /** The text/html part, transfer-decoded, if any. */
  readonly html: string | undefined;
}

/** Enough MIME for what nodemailer sends here: one text part, or multipart/alternative with text and HTML. */
export function parseRawMessage(raw: string): ParsedMessage {
  const { headers, body } = splitEntity(raw);
  const get = (name: string): string[] =>
    headers.filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`)).map(valueOf);
  const parts = partsOf(headers, body);
  const text = parts.find((part) => part.type.startsWith('text/plain'));
  const html = parts.find((part) => part.type.startsWith('text/html'));
  return {
    headerLines: headers,
    headers: get,
    header: (name) => get(name)[0],
    text: text?.body ?? '',
    html: html?.body,
  };
}

function splitEntity(raw: string): { headers: string[]; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  // Unfold: a line starting with white space continues the previous header (RFC 5322 §2.2.3).
  return { headers: head.replace(/\r\n(?=[ \t])/g, '').split('\r\n'), body };
}

function valueOf(line: string): string {
  return decodeWords(line.slice(line.indexOf(':') + 1).trim());
}

function partsOf(headers: string[], body: string): { type: string; body: string }[] {
  const type = headerValue(headers, 'content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || boundary === undefined) {
    return [{ type: type.toLowerCase(), body: decodeBody(body, headerValue(headers, 'content-transfer-encoding')) }];
  }
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((chunk) => {
      const part = splitEntity(chunk.replace(/^\r\n/, ''));
      return partsOf(part.headers, part.body.replace(/\r\n$/, ''));
    });
}

function headerValue(headers: string[], name: string): string | undefined {
  const line = headers.find((entry) => entry.toLowerCase().startsWith(`${name}:`));
  return line === undefined ? undefined : line.slice(name.length + 1).trim();
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body.replace(/=\r\n/g, ''));
    default:
      return body;
  }
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i] ?? ''));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`); white space between two words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, mode: string, encoded: string) =>
      mode.toUpperCase() === 'B'
        ? Buffer.from(encoded, 'base64').toString('utf8')
        : decodeQuotedPrintable(encoded.replace(/_/g, ' ')),
    );
}
