import { isAbsolute, resolve } from 'node:path';

export interface RulesPath {
  /** As the user gave it, for messages. */
  readonly display: string;
  readonly absolute: string;
}

/** The rules file for `check`, `route` and `test`: the argument, else $SWITCHYARD_RULES, else ./rules.yaml. */
export function resolveRulesPath(
  argument: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): RulesPath {
  const fromEnv = env.SWITCHYARD_RULES === '' ? undefined : env.SWITCHYARD_RULES;
  const display = argument ?? fromEnv ?? 'rules.yaml';
  return { display, absolute: isAbsolute(display) ? display : resolve(cwd, display) };
}
