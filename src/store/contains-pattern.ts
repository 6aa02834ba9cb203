/**
 * A LIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally (with `ESCAPE '\'`): a search
 * for "50%" finds "50%", not every value with "50" in it.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}
