import type { ErrorObject } from 'ajv';
import { enumHint, unknownPropertyHint } from '../rules/schema/describe-schema-error.js';

/**
 * A config schema error in ajv's words (operators and tests know them), with the suggestion the rules'
 * messages make for a near miss: `unknown key: did you mean "host"? (allowed: host, port)`. Needs an ajv with
 * `verbose`. Never quotes the value, which may hold a secret from the environment.
 */
export function describeConfigError(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return `unknown key${unknownPropertyHint(error)}`;
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  if (error.keyword === 'enum' && allowed !== undefined) {
    return `${error.message ?? 'is invalid'}: ${allowed.map(String).join(', ')}${enumHint(error)}`;
  }
  return error.message ?? 'is invalid';
}
