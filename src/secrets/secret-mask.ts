import { secretForms } from './secret-forms.js';

export const MASK = '[redacted]';
/** Shorter values would mask ordinary words; nobody should use a secret that short anyway. */
const MIN_SECRET = 4;
/**
 * The shortest piece of a secret masked where a text was cut (see `trailingPartial`). 4 leaves at most 3
 * characters of a secret (usually 20 or more), too few to guess the rest; with fewer, the last 1 to 3
 * characters of ordinary text would often match the start of some form (every URL secret starts `http`,
 * base64 forms start with any letter) and be masked for nothing.
 */
export const MIN_PARTIAL = 4;
/** Forms are looked up by their first characters; every form has at least this many. */
const HEAD = Math.min(MIN_SECRET, MIN_PARTIAL);

export interface SecretMask {
  /** `text` with every form of every secret replaced by `[redacted]`. */
  mask(text: string): string;
  /**
   * How many characters at the end of `text` (a text that was cut there) are the start of a form of a
   * secret: at least `MIN_PARTIAL`, or 0. The longest such piece wins.
   */
  trailingPartial(text: string): number;
}

/**
 * Compiles one set of secrets for masking, once per set rather than per text: masking runs per attempt and
 * per log line. Forms are indexed by a rolling hash of their first 4 characters, so a text is scanned once
 * whatever the number of secrets (a regular expression alternating thousands of forms tries each at every
 * position: about a millisecond a log line with 200 secrets).
 * At each position the longest form that matches is masked, so a secret containing another is masked whole.
 * `encode` turns each form into the one searched for (the logger passes JSON escaping).
 */
export function createSecretMask(secrets: Iterable<string>, encode: (form: string) => string = (f) => f): SecretMask {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET) continue;
    for (const form of secretForms(secret)) forms.add(encode(form));
  }
  const byHead = new Map<number, string[]>();
  // A cheap first filter in front of the map: most positions of a text start no secret.
  const seen = new Uint8Array(FILTER_SIZE);
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    const key = headKey(form, 0);
    byHead.set(key, [...(byHead.get(key) ?? []), form]);
    seen[slot(key)] = 1;
  }
  const longest = Math.max(0, ...[...forms].map((form) => form.length));
  if (byHead.size === 0) return { mask: (text) => text, trailingPartial: () => 0 };
  const candidatesAt = (key: number): readonly string[] | undefined =>
    seen[slot(key)] === 1 ? byHead.get(key) : undefined;

  return {
    mask(text) {
      if (text.length < HEAD) return text;
      let masked = '';
      let copied = 0;
      let key = headKey(text, 0);
      for (let at = 0; ;) {
        const form = candidatesAt(key)?.find((candidate) => text.startsWith(candidate, at));
        const next = form === undefined ? at + 1 : at + form.length;
        if (form !== undefined) {
          masked += `${text.slice(copied, at)}${MASK}`;
          copied = next;
        }
        if (next + HEAD > text.length) break;
        // Rolling the hash one character on is the common case; after a masked form it starts afresh.
        key = form === undefined ? roll(key, text.charCodeAt(at), text.charCodeAt(at + HEAD)) : headKey(text, next);
        at = next;
      }
      return copied === 0 ? text : `${masked}${text.slice(copied)}`;
    },
    trailingPartial(text) {
      // Only a proper prefix can be left at the end; a whole form was masked before the cut.
      const from = Math.max(0, text.length - longest + 1);
      if (from + MIN_PARTIAL > text.length) return 0;
      for (let at = from, key = headKey(text, from); ;) {
        const candidates = candidatesAt(key);
        const rest = candidates === undefined ? '' : text.slice(at);
        if (candidates?.some((form) => form.length > rest.length && form.startsWith(rest))) return rest.length;
        if (at + MIN_PARTIAL >= text.length) return 0;
        key = roll(key, text.charCodeAt(at), text.charCodeAt(at + HEAD));
        at++;
      }
    },
  };
}

const BASE = 31;
const BASE_POWER = BASE ** (HEAD - 1);
const FILTER_SIZE = 1 << 16;

/** A polynomial hash of the `HEAD` characters at `at` (mod 2^32); collisions only cost a `startsWith`. */
function headKey(text: string, at: number): number {
  let hash = 0;
  for (let i = at; i < at + HEAD; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

/** The hash of the next `HEAD` characters, from this one's: drop `out`, take in `next`. */
function roll(hash: number, out: number, next: number): number {
  return (Math.imul(hash - Math.imul(out, BASE_POWER), BASE) + next) | 0;
}

function slot(key: number): number {
  return (key ^ (key >>> 16)) & (FILTER_SIZE - 1);
}
