import { secretForms } from './secret-forms.js';

export const MASK = '[redacted]';
/** Shorter values would mask ordinary words; nobody should use a secret that short anyway. */
const MIN_SECRET = 4;
/**
 * The shortest piece of a secret masked where a text was cut (see `trailingPartial`). Longer leaves up to 3
 * characters of a secret of usually 20 or more, which is not enough to guess the rest; shorter would mask
 * ordinary text ending in `ht` (every URL secret starts `http`) for nothing.
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
 * per log line. Forms are indexed by a hash of their first 4 characters, so a text is scanned once whatever
 * the number of secrets (a regular expression alternating thousands of forms tries each at every position).
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
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    const key = headKey(form, 0);
    byHead.set(key, [...(byHead.get(key) ?? []), form]);
  }
  const longest = Math.max(0, ...[...forms].map((form) => form.length));
  if (byHead.size === 0) return { mask: (text) => text, trailingPartial: () => 0 };

  return {
    mask(text) {
      let masked = '';
      let copied = 0;
      for (let at = 0; at + HEAD <= text.length;) {
        const form = byHead.get(headKey(text, at))?.find((candidate) => text.startsWith(candidate, at));
        if (form === undefined) {
          at++;
          continue;
        }
        masked += `${text.slice(copied, at)}${MASK}`;
        at += form.length;
        copied = at;
      }
      return copied === 0 ? text : `${masked}${text.slice(copied)}`;
    },
    trailingPartial(text) {
      // Only a proper prefix can be left at the end; a whole form was masked before the cut.
      for (let at = Math.max(0, text.length - longest + 1); at + MIN_PARTIAL <= text.length; at++) {
        const rest = text.slice(at);
        const candidates = byHead.get(headKey(text, at));
        if (candidates?.some((form) => form.length > rest.length && form.startsWith(rest))) return rest.length;
      }
      return 0;
    },
  };
}

/** FNV-1a over the `HEAD` characters at `at`; collisions only cost a `startsWith`. */
function headKey(text: string, at: number): number {
  let hash = 0x811c9dc5;
  for (let i = at; i < at + HEAD; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash;
}
