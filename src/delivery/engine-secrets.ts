import type { CompiledRules } from '../rules/rules.js';

/**
 * The values the engine masks in stored attempt details: the config's secrets and the rules' in force. One
 * array per rules version, so the masking compiled for it is reused by every attempt (redactDetail).
 */
export function engineSecrets(configSecrets: readonly string[], rules: () => CompiledRules): () => readonly string[] {
  let secretsOf: { rules: unknown; secrets: readonly string[] } = { rules: null, secrets: [] };
  return () => {
    const current = rules();
    if (secretsOf.rules !== current) secretsOf = { rules: current, secrets: [...configSecrets, ...current.secrets] };
    return secretsOf.secrets;
  };
}
