import { createHash } from 'node:crypto';
import { compileRulesSource } from './compile-rules-source.js';
import type { RulesLoadResult } from './rules.js';

/**
 * Compiles rules text that is not the file in force (the console's rule tester) with the checks a reload
 * makes: a `${VAR}` the daemon's environment lacks is an error. Values are never put in: whoever pastes the
 * text holds a read key, not the environment, and a template could otherwise show any variable (`key: "{{
 * '${DB_PASSWORD}' | upcase }}"` got past masking). The version is the hash of the text, as it would be of the
 * file. Nothing is read from or written to disk.
 */
export function candidateRulesCompiler(
  rulesFile: string,
  env: Readonly<Record<string, string | undefined>>,
): (text: string) => RulesLoadResult {
  return (text) =>
    compileRulesSource({
      text,
      file: 'candidate',
      absoluteFile: rulesFile,
      version: createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12),
      env,
      requireEnv: true,
      withholdEnv: true,
    });
}
