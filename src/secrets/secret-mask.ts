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
 * Compiles one set of secrets into a single regular expression (longest form first, so a secret containing
 * another is masked whole), built once per set rather than per text: masking runs per attempt and per log
 * line. `encode` turns each form into the one searched for (the logger passes JSON escaping).
 */
export function createSecretMask(secrets: Iterable<string>, encode: (form: string) => string = (f) => f): SecretMask {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET) continue;
    for (const form of secretForms(secret)) forms.add(encode(form));
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return { mask: (text) => text, trailingPartial: () => 0 };
  const pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
  const heads = sorted.map((form) => ({ form, head: form.slice(0, MIN_PARTIAL) }));
  return {
    mask: (text) => text.replace(pattern, MASK),
    trailingPartial(text) {
      let longest = 0;
      for (const { form, head } of heads) {
        // Only a proper prefix can be left at the end; a whole form was masked before the cut.
        const from = Math.max(0, text.length - form.length + 1);
        for (let at = text.indexOf(head, from); at !== -1; at = text.indexOf(head, at + 1)) {
          if (text.length - at <= longest) break;
          if (form.startsWith(text.slice(at))) {
            longest = text.length - at;
            break;
          }
        }
      }
      return longest;
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
