import { loadRulesFile } from '../rules/load-rules-file.js';
import { formatProblem } from '../rules/format-problem.js';
import { parseCommandArgs } from './parse-command-args.js';
import { resolveRulesPath } from './resolve-rules-path.js';
import type { CliCommand } from './cli-io.js';

const USAGE = `usage: switchyard check [RULES] [--no-env]

Validates a rules file completely and prints every problem as file:line:column: error|warning: message.
RULES defaults to $SWITCHYARD_RULES, else ./rules.yaml. Exit 1 on any error, 0 otherwise.
  --no-env   treat unset \${VAR} references as warnings (e.g. in a CI job without secrets)
`;

/** `switchyard check`: all problems of a rules file, located; never prints a target option's value. */
export const runCheck: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(args, { 'no-env': { type: 'boolean' } }, { min: 0, max: 1 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const path = resolveRulesPath(parsed.positionals[0], io.env, io.cwd);
  const result = loadRulesFile(path.absolute, io.env, { requireEnv: parsed.values['no-env'] !== true });
  const problems = (result.ok ? result.warnings : result.problems).map((problem) => ({
    ...problem,
    file: path.display,
  }));
  for (const problem of problems) io.stdout(`${formatProblem(problem)}\n`);

  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  if (!result.ok) {
    io.stdout(`${path.display}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
    return 1;
  }
  const { rules } = result;
  io.stdout(
    `${path.display}: OK, ${plural(rules.routes.length, 'route')}, ${plural(rules.targets.size, 'target')}, ` +
      `${plural(warnings, 'warning')} (version ${rules.version})\n`,
  );
  return 0;
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
