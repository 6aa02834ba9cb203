/**
 * How deep an event is shown to templates and default messages. Real events nest a handful of levels; a
 * hostile one can nest thousands, where JSON.stringify, Liquid's `json` filter and the printing of nested
 * lists all overflow the stack and the message could not be built at all.
 */
export const MAX_SHOWN_DEPTH = 32;

/** What stands in for a part nested deeper than that. */
export const TOO_DEEP = `[nested deeper than ${MAX_SHOWN_DEPTH} levels: not shown]`;

/**
 * `value` with `maxDepth` levels of objects and lists (`value` itself the first) and each one below replaced by
 * the `TOO_DEEP` marker; `value` itself, uncopied, when nothing is that deep (the usual case: one pass that
 * allocates nothing). Recursion goes no deeper than `maxDepth`, whatever the input.
 */
export function limitDepth(value: unknown, maxDepth = MAX_SHOWN_DEPTH): unknown {
  return tooDeep(value, maxDepth) ? cut(value, maxDepth) : value;
}

function tooDeep(value: unknown, levelsLeft: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levelsLeft === 0) return true;
  for (const child of Object.values(value)) if (tooDeep(child, levelsLeft - 1)) return true;
  return false;
}

function cut(value: unknown, levelsLeft: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (levelsLeft === 0) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((child: unknown) => cut(child, levelsLeft - 1));
  // fromEntries defines own properties, so a `__proto__` key stays a key instead of setting the prototype.
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, cut(child, levelsLeft - 1)]));
}
