import type { MatchContext } from '../rules/rules.js';
import type { CompiledSilence } from './compile-silence.js';

/**
 * The silence that holds an event received at `now`, or undefined. Of several, the one that ends last, so the
 * explanation names the silence that will still hold similar events longest (ties: the oldest, by id).
 */
export function findSilence(
  silences: readonly CompiledSilence[],
  context: MatchContext,
  now: number,
): CompiledSilence | undefined {
  let found: CompiledSilence | undefined;
  for (const candidate of silences) {
    const { startsAt, endsAt } = candidate.silence;
    if (now < startsAt || now >= endsAt || !candidate.matches(context)) continue;
    if (found === undefined || endsAt > found.silence.endsAt) found = candidate;
  }
  return found;
}
