import { Ajv, type ValidateFunction } from 'ajv';

/**
 * Compiles a JSON Schema the way every Switchyard schema is checked: all errors at once (a rules check
 * should list every problem, not the first), strict about the schema itself, discriminated target types.
 * `verbose` gives each error its parent schema, used to list the allowed property names.
 */
export function compileSchema(schema: object): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, discriminator: true, verbose: true });
  return ajv.compile(schema);
}
