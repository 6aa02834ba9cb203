import { ELLIPSIS, isHighSurrogate } from './clip-slack-text.js';
import { flattenHeaderText } from './flatten-header-text.js';

/**
 * `text` as one line (runs of whitespace and control characters become one space) of at most `max` UTF-16
 * units, the strictest way a receiver may count, ending with `…` when cut.
 */
export function clipLine(text: string, max: number): string {
  return clipText(flattenHeaderText(text, Number.POSITIVE_INFINITY), max);
}

/** `text` of at most `max` UTF-16 units, ending with `…` when cut; a surrogate pair is never split. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - ELLIPSIS.length;
  if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut)}${ELLIPSIS}`;
}
