import { MASK, type SecretMask } from '../secrets/secret-mask.js';

/**
 * Masks every secret in a finished JSON log line. Working on the line, not on the record's fields, means
 * a secret is caught whichever field or nesting it reached, winston's own fields (the level it filters
 * on) are never touched, and the record is not copied on the hot path. `secrets` searches the forms in
 * their JSON-escaped form, which is how they appear inside the line.
 */
export function redactSecrets(line: string, secrets: SecretMask): string {
  let result = secrets.mask(line);
  // Then the shapes a secret has even when nobody registered it: a safety net for a future log call that
  // includes a header, a signature or a webhook URL the daemon did not get from the environment.
  for (const [pattern, replacement] of SHAPES) result = result.replace(pattern, replacement);
  return result;
}

const SHAPES: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${MASK}`], // Authorization values
  [/\bsha256=[0-9a-fA-F]{64}\b/g, `sha256=${MASK}`], // webhook signatures
  [/(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[^\s"\\]+/g, `$1${MASK}`], // Slack webhook URLs
  [/\bsy_[A-Za-z0-9_-]{20,}/g, MASK], // admin API keys
  [/(:\/\/[^\s:/@"]+:)[^\s@/"]+@/g, `$1${MASK}@`], // passwords in URLs (smtp://user:pass@host)
];

/** The form a secret takes inside a JSON string. */
export function escapeForJson(secret: string): string {
  return JSON.stringify(secret).slice(1, -1);
}
