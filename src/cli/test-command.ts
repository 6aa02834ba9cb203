import { resolve } from 'node:path';
import { loadRulesFile } from '../rules/load-rules-file.js';
import { formatProblem } from '../rules/format-problem.js';
import { formatTestResults } from './format-test-results.js';
import { parseCommandArgs } from './parse-command-args.js';
import { resolveRulesPath } from './resolve-rules-path.js';
import { summarizeRulesWarnings } from './summarize-rules-warnings.js';
import { loadRulesTestsFile } from '../rules/tests/load-rules-tests-file.js';
import { runRulesTests } from '../rules/tests/run-rules-tests.js';
import type { CliCommand } from './cli-io.js';

const USAGE = `usage: switchyard test [RULES] TESTS.yaml

Runs routing test cases against a rules file and prints PASS/FAIL per case, with the difference for a
failure. Each case: { name, event: { event, timestamp, data }, expect: [targets] } (the exact set), and
optionally expect_requests: { target: create|update|resolve } with references: { target: { name: value } }
as the key's history (a target not named has none).
RULES defaults to $SWITCHYARD_RULES, else ./rules.yaml. Exit 1 on any failure or invalid file; every
problem of both files (including expect naming a target the rules do not define) is listed at once.
`;

/** `switchyard test`: routing unit tests for rule changes under review. */
export const runTest: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(args, {}, { min: 1, max: 2 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const [first, second] = parsed.positionals;
  const rulesPath = resolveRulesPath(second === undefined ? undefined : first, io.env, io.cwd);
  const testsDisplay = second ?? first ?? '';

  const loaded = loadRulesFile(rulesPath.absolute, io.env, { requireEnv: false });
  const targetNames = loaded.ok ? new Set(loaded.rules.targets.keys()) : undefined;
  const tests = loadRulesTestsFile(resolve(io.cwd, testsDisplay), testsDisplay, targetNames);
  if (!loaded.ok || !tests.ok) {
    const problems = [
      ...(loaded.ok ? [] : loaded.problems.map((problem) => ({ ...problem, file: rulesPath.display }))),
      ...(tests.ok ? [] : tests.problems),
    ];
    for (const problem of problems) io.stderr(`${formatProblem(problem)}\n`);
    const invalid = [loaded.ok ? [] : [rulesPath.display], tests.ok ? [] : [testsDisplay]].flat();
    io.stderr(`switchyard test: ${invalid.join(' and ')} ${invalid.length > 1 ? 'are' : 'is'} invalid (see above)\n`);
    return 1;
  }
  io.stderr(summarizeRulesWarnings(rulesPath.display, loaded.warnings));
  const results = runRulesTests(loaded.rules, tests.cases);
  io.stdout(formatTestResults(results));
  return results.every((result) => result.passed) ? 0 : 1;
};
