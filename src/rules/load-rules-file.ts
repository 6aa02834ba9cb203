import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compileRulesSource } from './compile-rules-source.js';
import type { RulesLoadResult } from './rules.js';

export interface LoadRulesOptions {
  /**
   * When false, a missing `${VAR}` is a warning and the reference stays as a placeholder: `switchyard route`
   * and `test` only need routing, and a rules-review CI job has no secrets. Default true.
   */
  readonly requireEnv?: boolean;
}

/**
 * Reads, validates and compiles a rules file, reporting every problem at once. `version` is the first 12
 * hex digits of the SHA-256 of the file's bytes, so the journal can say which rules routed an event.
 * `file` is used as given in problems; relative paths are read against the process's working directory.
 */
export function loadRulesFile(
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  options: LoadRulesOptions = {},
): RulesLoadResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    return {
      ok: false,
      problems: [
        {
          severity: 'error',
          code: 'unreadable_file',
          message: `cannot read the rules file (${reason})`,
          file,
          line: 0,
          column: 0,
        },
      ],
    };
  }
  return compileRulesSource({
    text: bytes.toString('utf8'),
    file,
    absoluteFile: resolve(file),
    version: createHash('sha256').update(bytes).digest('hex').slice(0, 12),
    env,
    requireEnv: options.requireEnv ?? true,
  });
}
