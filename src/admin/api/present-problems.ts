import type { RulesProblem } from '../../rules/rules.js';

/** Located rules problems as the API shows them: the same `switchyard check` prints, never a target option's value. */
export function presentProblems(problems: readonly RulesProblem[]) {
  return problems.map(({ severity, code, message, file, line, column }) => ({
    severity,
    code,
    message,
    file,
    line,
    column,
  }));
}
