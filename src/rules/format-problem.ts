import type { RulesProblem } from './rules.js';

/** `file:line:column: error: message`, the form editors and CI annotators understand; no position for line 0. */
export function formatProblem(problem: RulesProblem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}:${problem.column}` : problem.file;
  return `${where}: ${problem.severity}: ${problem.message}`;
}
