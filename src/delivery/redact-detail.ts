import { createSecretMask, MASK, type SecretMask } from '../secrets/secret-mask.js';

const MAX_DETAIL = 300;
const ELLIPSIS = '…';
// Scheme, optional user:password@, host[:port]; the rest (path, query) may carry a token (Slack webhook URLs do).
const URL_PATTERN = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/@]*@)?([^\s/?#"'<>]+)[^\s"'<>]*/gi;

// The engine asks with the same array until the secrets change (a reload), so each set is compiled once.
const masks = new WeakMap<readonly string[], SecretMask>();

const NO_SECRETS = createSecretMask([]);

function maskFor(secrets: readonly string[]): SecretMask {
  if (secrets.length === 0) return NO_SECRETS;
  let mask = masks.get(secrets);
  if (mask === undefined) masks.set(secrets, (mask = createSecretMask(secrets)));
  return mask;
}

/**
 * Makes an error or response excerpt safe to store and show: every known secret masked (in every form it
 * travels in), URLs cut to their scheme and host, control characters flattened, at most 300 characters.
 * Masking comes first and the cut after, so a secret across the cut is masked whole; and where the text is
 * cut (here, or before it reached us: it then ends with `…`), a start of a secret left at the end is masked too.
 */
export function redactDetail(text: string, secrets: readonly string[]): string {
  const mask = maskFor(secrets);
  const cutBefore = text.endsWith(ELLIPSIS);
  let safe = mask.mask(cutBefore ? text.slice(0, -ELLIPSIS.length) : text);
  if (cutBefore) safe = `${withoutPartialSecret(safe, safe.length, mask)}${ELLIPSIS}`;
  safe = safe.replace(URL_PATTERN, (_match, scheme: string, host: string) => `${scheme}${host}/…`);
  // Control characters would let a receiver's answer forge lines in a terminal listing or a log.
  // eslint-disable-next-line no-control-regex
  safe = safe.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  if (safe.length <= MAX_DETAIL) return safe;
  return `${withoutPartialSecret(safe, MAX_DETAIL - ELLIPSIS.length, mask)}${ELLIPSIS}`;
}

/**
 * The first `length` characters of `text`, with the start of a secret the cut leaves at the end (and a
 * piece of a `[redacted]` marker) replaced by one marker, still within `length`.
 */
function withoutPartialSecret(text: string, length: number, mask: SecretMask): string {
  let cut = dropMarkerPiece(text.slice(0, length));
  if (mask.trailingPartial(cut) === 0) return cut;
  cut = cut.slice(0, Math.min(cut.length - mask.trailingPartial(cut), length - MASK.length));
  // Shortening to make room for the marker may leave the start of another secret.
  for (let partial = mask.trailingPartial(cut); partial > 0; partial = mask.trailingPartial(cut)) {
    cut = cut.slice(0, -partial);
  }
  return `${dropMarkerPiece(cut)}${MASK}`;
}

function dropMarkerPiece(text: string): string {
  for (let length = MASK.length - 1; length > 0; length--) {
    if (text.endsWith(MASK.slice(0, length))) return text.slice(0, -length);
  }
  return text;
}
