import { ELLIPSIS, isHighSurrogate } from './clip-slack-text.js';

/**
 * `text` cut to at most `max` characters (UTF-16 units), ending with an ellipsis when anything was cut. Meant
 * for text already escaped for Teams (`escapeTeamsMarkdown`): it never cuts between a backslash and the
 * character it escapes (the backslash would then escape the ellipsis, and the cut character's syntax come
 * back), nor inside a surrogate pair.
 */
export function clipTeamsText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - ELLIPSIS.length);
  if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  let backslashes = 0;
  while (backslashes < cut && text[cut - 1 - backslashes] === '\\') backslashes += 1;
  if (backslashes % 2 === 1) cut -= 1;
  return text.slice(0, cut) + ELLIPSIS;
}
