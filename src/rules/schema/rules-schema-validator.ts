import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { compileSchema } from './compile-schema.js';

// The schema file is also what editors use; src/ and dist/ are both siblings of schema/, so the same
// relative URL works under vitest/tsx and after `tsc`.
const SCHEMA_URL = new URL('../../../schema/rules.schema.json', import.meta.url);

let compiled: ValidateFunction | undefined;

/** The compiled rules schema. Compiled once per process: it is immutable, and reloads should stay cheap. */
export function rulesSchemaValidator(): ValidateFunction {
  compiled ??= compileSchema(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object);
  return compiled;
}
