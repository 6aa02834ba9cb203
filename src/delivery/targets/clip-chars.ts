/**
 * `text` cut to at most `max` characters, the last of them `…` when anything was cut. Cuts by code point, so
 * an emoji is never split in half; looks at no more of a huge string than it needs. For event text before it
 * is escaped (the default messages), where no escape can be split.
 */
export function clipChars(text: string, max: number): string {
  const chars = Array.from(text.slice(0, (max + 1) * 2));
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
