/** Invisible characters (zero-width space and joiners, word joiner, BOM, soft hyphen...), anywhere in a key. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A rendered throttle or group key as compared with `normalize_key: true`: Unicode NFKC (full-width and
 * compatibility forms become their plain letters), invisible characters removed, surrounding whitespace
 * trimmed, lower case. `H1`, `h1 ` and `h1` followed by a zero-width space are then one key. Whitespace inside
 * the key is kept: `db 1` and `db1` stay apart.
 */
export function normalizeKey(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').trim().toLowerCase();
}
