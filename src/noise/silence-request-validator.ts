import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { compileSchema } from '../rules/schema/compile-schema.js';

const RULES_SCHEMA_URL = new URL('../../schema/rules.schema.json', import.meta.url);
const INSTANT = { type: 'string', minLength: 1, maxLength: 64, description: 'ISO 8601 with a UTC offset or Z' };

let compiled: { create: ValidateFunction; change: ValidateFunction } | undefined;

/**
 * The JSON Schemas of a new silence and of a change to one (CLI and admin API alike). `match` is the rules
 * file's own route `match` definition, so a silence takes exactly the conditions a route takes.
 */
export function silenceRequestValidators(): { create: ValidateFunction; change: ValidateFunction } {
  if (compiled !== undefined) return compiled;
  const { definitions } = JSON.parse(readFileSync(RULES_SCHEMA_URL, 'utf8')) as { definitions: object };
  const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });
  compiled = {
    create: compileSchema({
      definitions,
      type: 'object',
      additionalProperties: false,
      required: ['comment', 'created_by'],
      properties: {
        match: { $ref: '#/definitions/match' },
        matchers: { type: 'array', minItems: 1, maxItems: 50, items: text(1000) },
        starts_at: INSTANT,
        ends_at: INSTANT,
        duration: { $ref: '#/definitions/duration' },
        comment: text(1000),
        created_by: text(200),
        on_expiry: { enum: ['drop', 'deliver_unresolved'] },
      },
    }),
    change: compileSchema({
      definitions,
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        ends_at: INSTANT,
        duration: { $ref: '#/definitions/duration' },
        expire: { const: true },
        comment: text(1000),
      },
    }),
  };
  return compiled;
}
