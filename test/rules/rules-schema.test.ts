import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rulesSchemaValidator } from '../../src/rules/schema/rules-schema-validator.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/rules.schema.json', import.meta.url), 'utf8')) as object;

/** Every object schema, with its JSON pointer. */
function* objectSchemas(node: unknown, pointer = '#'): Generator<[string, Record<string, unknown>]> {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* objectSchemas(item, `${pointer}/${index}`);
    return;
  }
  const record = node as Record<string, unknown>;
  if (record.type === 'object' || 'properties' in record) yield [pointer, record];
  for (const [key, value] of Object.entries(record)) yield* objectSchemas(value, `${pointer}/${key}`);
}

describe('the rules JSON Schema', () => {
  it('closes every object with properties and describes every property (for editor completion)', () => {
    for (const [pointer, object] of objectSchemas(schema)) {
      // A discriminated union (targets) is closed by each of its branches.
      if (object.properties === undefined || object.oneOf !== undefined) continue;
      expect(object.additionalProperties, pointer).toBe(false);
      for (const [name, property] of Object.entries(object.properties as Record<string, Record<string, unknown>>)) {
        const described = typeof property.description === 'string' || typeof property.$ref === 'string';
        expect(described, `${pointer}/properties/${name}`).toBe(true);
      }
    }
  });

  it('accepts the shipped example', () => {
    const validate = rulesSchemaValidator();
    const example = parse(readFileSync(new URL('../../rules.example.yaml', import.meta.url), 'utf8')) as unknown;
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });
});
