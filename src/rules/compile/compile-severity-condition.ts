import type { PathSegment } from '../source/locate-path.js';
import type { MatchContext, RouteCondition } from '../rules.js';

export interface SeverityConditionSpec {
  readonly at_least?: string;
  readonly at_most?: string;
  readonly in?: readonly string[];
}

export type SeverityConditionResult =
  | { readonly ok: true; readonly condition: RouteCondition; readonly emptyRange: boolean }
  | {
      readonly ok: false;
      readonly unknownLevels: readonly { readonly path: readonly PathSegment[]; readonly level: string }[];
    };

/**
 * Compiles `severity: { at_least, at_most, in }` (all given parts must hold) into rank comparisons.
 * Level names are matched case-insensitively, like the event's value; names not in `severities` are errors.
 */
export function compileSeverityCondition(
  spec: SeverityConditionSpec,
  levels: readonly string[],
  ranks: ReadonlyMap<string, number>,
): SeverityConditionResult {
  const unknownLevels: { path: PathSegment[]; level: string }[] = [];
  const rankOf = (level: string, path: PathSegment[]): number => {
    const rank = ranks.get(level.toLowerCase());
    if (rank === undefined) unknownLevels.push({ path, level });
    return rank ?? -1;
  };
  const atLeast = spec.at_least === undefined ? undefined : rankOf(spec.at_least, ['at_least']);
  const atMost = spec.at_most === undefined ? undefined : rankOf(spec.at_most, ['at_most']);
  const inRanks = spec.in?.map((level, index) => rankOf(level, ['in', index]));
  if (unknownLevels.length > 0) return { ok: false, unknownLevels };

  const allowed = inRanks === undefined ? undefined : new Set(inRanks);
  const name = (rank: number | undefined) => levels[rank ?? -1] ?? '?';
  const holds = (rank: number): boolean =>
    rank >= 0 &&
    (atLeast === undefined || rank >= atLeast) &&
    (atMost === undefined || rank <= atMost) &&
    (allowed === undefined || allowed.has(rank));
  const failure = (context: MatchContext): string => {
    const { rank, severity } = context;
    const shown = severity.unknown
      ? `${JSON.stringify(severity.raw)} (not a configured level, read as ${name(rank)})`
      : JSON.stringify(severity.raw);
    if (rank < 0) return 'absent (data.severity is missing or not a string), so no severity condition holds';
    if (atLeast !== undefined && rank < atLeast) return `${shown} is below at_least ${name(atLeast)}`;
    if (atMost !== undefined && rank > atMost) return `${shown} is above at_most ${name(atMost)}`;
    if (allowed !== undefined && !allowed.has(rank)) return `${shown} is not in [${spec.in?.join(', ')}]`;
    return 'holds';
  };
  const emptyRange =
    (atLeast !== undefined && atMost !== undefined && atLeast > atMost) ||
    (inRanks !== undefined && inRanks.every((rank) => (atLeast ?? 0) > rank || rank > (atMost ?? levels.length)));
  return {
    ok: true,
    emptyRange,
    condition: {
      test: (context) => holds(context.rank),
      explain: (context) => `severity: ${failure(context)}`,
    },
  };
}
