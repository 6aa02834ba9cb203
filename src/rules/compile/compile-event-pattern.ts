export type EventPattern =
  | { readonly ok: true; readonly form: 'exact' | 'glob' | 'all'; readonly matches: (kind: string) => boolean }
  | { readonly ok: false; readonly reason: string };

const RESERVED = /[\s?[\]{}!,\\]/;

/**
 * Compiles an event-kind pattern. Grammar (docs/rules.md): dot-separated, non-empty segments; in a segment,
 * each `*` matches one or more characters other than "."; `*` on its own matches every kind. Other glob
 * syntax (`?`, `[...]`, `{a,b}`, `**`) is rejected rather than taken literally, so nobody relies on it
 * by mistake. Matching is a linear scan per segment, never a backtracking regular expression: event kinds
 * come from the network.
 */
export function compileEventPattern(pattern: string): EventPattern {
  if (pattern === '*') return { ok: true, form: 'all', matches: () => true };
  const reserved = RESERVED.exec(pattern);
  if (reserved !== null) {
    return { ok: false, reason: `${JSON.stringify(reserved[0])} is not allowed: only * is a wildcard` };
  }
  const segments = pattern.split('.');
  if (segments.some((segment) => segment === '')) {
    return { ok: false, reason: 'empty segment: a pattern must not start or end with "." or contain ".."' };
  }
  if (pattern.includes('**')) {
    return { ok: false, reason: '"**" is not supported: * matches within one segment, and * alone matches every kind' };
  }
  if (!pattern.includes('*')) return { ok: true, form: 'exact', matches: (kind) => kind === pattern };
  const compiled = segments.map((segment) => segment.split('*'));
  const prefix = pattern.slice(0, pattern.indexOf('*'));
  return {
    ok: true,
    form: 'glob',
    matches: (kind) => {
      if (!kind.startsWith(prefix)) return false;
      const parts = kind.split('.');
      if (parts.length !== compiled.length) return false;
      return compiled.every((segment, index) => matchSegment(segment, parts[index] ?? ''));
    },
  };
}

/** `pieces` are the literal parts around the stars of one segment; each star takes at least one character. */
function matchSegment(pieces: readonly string[], text: string): boolean {
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return text === first;
  const last = pieces[pieces.length - 1] ?? '';
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  const suffixStart = text.length - last.length;
  let position = first.length;
  // Leftmost placement of each middle piece leaves the most room for the rest, so no backtracking is needed.
  for (let index = 1; index < pieces.length - 1; index++) {
    const piece = pieces[index] ?? '';
    const found = text.indexOf(piece, position + 1);
    if (found < 0 || found + piece.length > suffixStart - 1) return false;
    position = found + piece.length;
  }
  return suffixStart - position >= 1;
}
