/** One line of at most `max` characters, for summaries of what a stand-in received. */
export function clipText(text: string, max = 72): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 3)}...`;
}
