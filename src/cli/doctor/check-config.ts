import type { Config } from '../../config/config.js';
import { loadConfig } from '../../config/load-config.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * Loads the config exactly as `serve` would (every `${VAR}` required), so a missing secret in the daemon's
 * environment is a FAIL here too. Run doctor with the daemon's environment. Messages name keys and
 * variables, never values.
 */
export function checkConfig(
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { readonly check: DoctorCheck; readonly config: Config | null } {
  try {
    const config = loadConfig({ file, env, cwd });
    const sources = [...config.sources.keys()];
    const detail =
      `${config.file ?? '(defaults)'}: ${sources.length} source${sources.length === 1 ? '' : 's'} ` +
      `(${sources.join(', ')}), listening on ${config.listen.host}:${config.listen.port}`;
    // A removed option does nothing: worth a look, not a failure (the daemon starts with it).
    const warnings = config.warnings.map(({ key, message, where }) => `\n${where}: ${key}: ${message}`).join('');
    return { check: { verdict: warnings === '' ? 'OK' : 'WARN', item: 'config', detail: detail + warnings }, config };
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    return { check: { verdict: 'FAIL', item: 'config', detail: error.message }, config: null };
  }
}
