import { loadRulesFile, type LoadRulesOptions } from '../../../src/rules/load-rules-file.js';
import type { CompiledRules, RulesLoadResult } from '../../../src/rules/rules.js';
import { useTempDir } from './temp-dir.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Loads rules from YAML text through a real file, as the daemon does. Call once per test file (registers cleanup). */
export function rulesLoader(): {
  load(text: string, env?: Env, options?: LoadRulesOptions): RulesLoadResult;
  compile(text: string, env?: Env): CompiledRules;
} {
  const temp = useTempDir();
  let counter = 0;
  const load = (text: string, env: Env = {}, options?: LoadRulesOptions) =>
    loadRulesFile(temp.write(`rules-${++counter}.yaml`, text), env, options);
  return {
    load,
    compile(text, env = {}) {
      const result = load(text, env);
      if (!result.ok)
        throw new Error(
          `rules did not load:\n${result.problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n')}`,
        );
      return result.rules;
    },
  };
}
