import { formatProblem } from '../../rules/format-problem.js';
import { loadRulesFile } from '../../rules/load-rules-file.js';
import type { CompiledRules } from '../../rules/rules.js';
import type { DoctorCheck } from './doctor-check.js';

/** Problems listed in full before "and N more" (`switchyard check` lists them all). */
const SHOWN = 5;

/** Loads the rules as the daemon would (`${VAR}` required); WARN when they load with warnings. */
export function checkRules(
  file: string,
  env: Readonly<Record<string, string | undefined>>,
): { readonly check: DoctorCheck; readonly rules: CompiledRules | null } {
  const result = loadRulesFile(file, env, { requireEnv: true });
  const problems = result.ok ? result.warnings : result.problems;
  const listed = problems.slice(0, SHOWN).map(formatProblem);
  if (problems.length > SHOWN) listed.push(`... and ${problems.length - SHOWN} more: switchyard check ${file}`);
  if (!result.ok) {
    const errors = problems.filter((p) => p.severity === 'error').length;
    const detail = [`${file}: ${errors} error${errors === 1 ? '' : 's'}`, ...listed].join('\n');
    return { check: { verdict: 'FAIL', item: 'rules', detail }, rules: null };
  }
  const { rules } = result;
  const summary = `${file}: ${rules.routes.length} routes, ${rules.targets.size} targets, version ${rules.version}`;
  if (problems.length === 0) return { check: { verdict: 'OK', item: 'rules', detail: summary }, rules };
  const detail = [`${summary}, ${problems.length} warning${problems.length === 1 ? '' : 's'}`, ...listed].join('\n');
  return { check: { verdict: 'WARN', item: 'rules', detail }, rules };
}
