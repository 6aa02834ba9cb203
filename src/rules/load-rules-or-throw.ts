import { SwitchyardError } from '../switchyard-error.js';
import { loadRulesFile } from './load-rules-file.js';
import { formatProblem } from './format-problem.js';
import type { CompiledRules, RulesProblem } from './rules.js';

/** Loads rules for the daemon, where any error is fatal (start-up) or keeps the old rules (reload). */
export function loadRulesOrThrow(
  file: string,
  env: Readonly<Record<string, string | undefined>>,
): { rules: CompiledRules; warnings: readonly RulesProblem[] } {
  const result = loadRulesFile(file, env, { requireEnv: true });
  if (!result.ok) throw new SwitchyardError('invalid_rules', describeInvalidRules(result.problems), { where: file });
  return { rules: result.rules, warnings: result.warnings };
}

/** `invalid rules file:` and one `file:line:column: error: ...` line per problem, for logs. */
export function describeInvalidRules(problems: readonly RulesProblem[]): string {
  return `invalid rules file:\n  ${problems.map(formatProblem).join('\n  ')}`;
}
