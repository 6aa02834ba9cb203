/**
 * The candidate a mistyped name most likely meant, or undefined when none is close: at most a third of the
 * name's length in edits, and never more than two (an edit inserts, deletes, replaces or swaps two adjacent
 * characters; case is ignored), so `a` never suggests `b`. Ties go to the earlier candidate.
 */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `: did you mean "x"?` to follow the unknown name in a message, or '' when no candidate is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const name = closestName(word, candidates);
  return name === undefined ? '' : `: did you mean "${name}"?`;
}

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring). */
function editDistance(a: string, b: string, stopAt: number): number {
  if (Math.abs(a.length - b.length) >= stopAt) return stopAt;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current.push(value);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? stopAt;
}
