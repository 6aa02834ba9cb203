/** Shown where text was cut, so a reader knows there was more. */
export const ELLIPSIS = '…';

/** The longest of the escapes `escapeSlack` writes (`&amp;`); a `&` closer than this to the cut may be cut. */
const LONGEST_ESCAPE = 5;

/**
 * `text` cut to at most `max` characters (as Slack counts them: UTF-16 units, the stricter count), ending with
 * an ellipsis when anything was cut. Meant for text already escaped for Slack: it never cuts inside an escape
 * (`&lt;`), a control sequence (`<url|label>`, `<!date^…>`, `<@U123>`) or a surrogate pair, cutting before
 * them instead, so what is left still reads as Slack would have shown it.
 * https://api.slack.com/reference/surfaces/formatting#escaping
 */
export function clipSlackText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - ELLIPSIS.length;
  const open = text.lastIndexOf('<', cut - 1);
  if (open !== -1 && text.lastIndexOf('>', cut - 1) < open) cut = open;
  const amp = text.lastIndexOf('&', cut - 1);
  if (amp !== -1 && amp > cut - LONGEST_ESCAPE && !text.slice(amp, cut).includes(';')) cut = amp;
  if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return text.slice(0, cut) + ELLIPSIS;
}

/** The first half of a surrogate pair: a cut right after it would leave half a character. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
