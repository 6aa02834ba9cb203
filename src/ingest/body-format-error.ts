import { SwitchyardError } from '../switchyard-error.js';

// The labels of UTF-8 a sender may put in `charset` (WHATWG Encoding's usual two); JSON is UTF-8 (RFC 8259 §8.1).
const UTF8_LABELS: ReadonlySet<string> = new Set(['utf-8', 'utf8']);

/**
 * Why the body, as its headers describe it, cannot be read as the signed JSON event: a media type other than
 * `application/json`, a `charset` other than UTF-8, or a content coding (gzip, br...) applied to it. Undefined
 * when it can. Checked from the headers alone, before the body is read. A coded body is refused rather than
 * decoded: the signature covers the bytes as sent, and decoding before the signature is checked would let
 * unauthenticated senders make the daemon inflate a body (RFC 9110 §15.5.16: 415 for a coding not supported).
 */
export function bodyFormatError(
  contentType: string | undefined,
  contentEncoding: string | undefined,
): SwitchyardError | undefined {
  // The usual headers as they are, without splitting them.
  if (contentType !== 'application/json') {
    const [mediaType, ...parameters] = (contentType ?? '').split(';');
    if (mediaType?.trim().toLowerCase() !== 'application/json') {
      return unsupported('unsupported_media_type', 'Content-Type must be application/json');
    }
    const charset = parameters.map(parameter).find(([name]) => name === 'charset')?.[1];
    if (charset !== undefined && !UTF8_LABELS.has(charset.toLowerCase())) {
      return unsupported(
        'unsupported_media_type',
        `charset=${charset.slice(0, 40)} is not supported: JSON must be sent as UTF-8 (RFC 8259 §8.1)`,
      );
    }
  }
  if (contentEncoding !== undefined && contentEncoding !== '' && contentEncoding.toLowerCase() !== 'identity') {
    const codings = contentEncoding.split(',').map((coding) => coding.trim().toLowerCase());
    if (codings.some((coding) => coding !== 'identity' && coding !== '')) {
      return unsupported(
        'unsupported_content_encoding',
        `Content-Encoding ${contentEncoding.slice(0, 40)} is not supported: send the body uncompressed, and sign it as sent`,
      );
    }
  }
  return undefined;
}

/** `name=value` of a media type parameter: the name lowercased, a quoted value unquoted (RFC 9110 §5.6.6). */
function parameter(text: string): [string, string] {
  const equals = text.indexOf('=');
  if (equals === -1) return [text.trim().toLowerCase(), ''];
  const value = text.slice(equals + 1).trim();
  const unquoted = value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  return [text.slice(0, equals).trim().toLowerCase(), unquoted.replace(/\\(.)/g, '$1')];
}

function unsupported(code: string, message: string): SwitchyardError {
  return new SwitchyardError(code, message, { status: 415 });
}
