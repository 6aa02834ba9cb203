import { fileURLToPath } from 'node:url';

/**
 * The repository's rules.example.yaml. This file sits two levels below the package root both as
 * src/demo/*.ts (run by tsx) and as dist/demo/*.js (built), so one relative URL serves both.
 */
export function exampleRulesPath(): string {
  return fileURLToPath(new URL('../../rules.example.yaml', import.meta.url));
}
