import type { RulesProblem } from '../rules/rules.js';

/**
 * A short note on a rules file's warnings for `route` and `test`, whose output is about routing; the full
 * list is `switchyard check`'s job. Missing variables are expected there (a review CI has no secrets).
 */
export function summarizeRulesWarnings(file: string, warnings: readonly RulesProblem[]): string {
  const missing = new Set(
    warnings
      .filter((warning) => warning.code === 'missing_env')
      .map((warning) => /environment variable (\S+)/.exec(warning.message)?.[1]),
  );
  const others = warnings.filter((warning) => warning.code !== 'missing_env').length;
  const lines: string[] = [];
  if (missing.size > 0) {
    lines.push(`note: ${missing.size} environment variable(s) not set; placeholders used (routing does not need them)`);
  }
  if (others > 0) lines.push(`note: ${file} has ${others} warning(s); run "switchyard check ${file}" for details`);
  return lines.map((line) => `${line}\n`).join('');
}
