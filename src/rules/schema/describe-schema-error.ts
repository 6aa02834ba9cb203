import type { ErrorObject } from 'ajv';
import { closestName, didYouMean } from '../check/closest-name.js';

// Messages for the schema's patterns; ajv would otherwise print the regular expression itself.
const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$':
    'must be a name: a letter or digit, then letters, digits, ".", "_" or "-" (at most 100 characters)',
  '^(?:https?://[^\\s]+|.*\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}.*)$': 'must be an http:// or https:// URL',
  '^(?:https?://\\S.*|.*\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}.*)$': 'must be an http:// or https:// URL',
  '^(?:[^@\\s]+@[^@\\s]+|.*\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}.*)$': 'must be an e-mail address',
  '^(?:event|timestamp|data(?:\\.[^.]+)*)$': 'must be a field path: event, timestamp, data or data.<key>[.<key>...]',
  "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$": 'must be an HTTP header name',
  '^(?:\\d+(?:ms|s|m|h|d|w))+$': 'must be a duration such as 500ms, 30s, 10m, 1h30m or 24h',
  '^(?:smtps?://[^\\s]+|.*\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}.*)$': 'must be an smtp:// or smtps:// URL',
  "^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\\s*;.*)?$": 'must be a media type such as text/plain',
  // A tests file's `at:`, in the words `switchyard route --at` uses.
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:\\d{2})$':
    'must be a date-time with a zone (Z or an offset), e.g. 2026-12-24T22:00:00+01:00',
};

// minProperties / maxProperties mean different things depending on where they fail.
const PROPERTY_COUNT_MESSAGES: readonly (readonly [RegExp, string])[] = [
  [/\/where\/\d+$/, 'a condition takes field and exactly one of equals, in, exists, matches, not'],
  [/\/where\/\d+\/not$/, 'not takes exactly one of equals, in, exists, matches'],
  [/\/match$/, 'match must not be empty: leave it out to match every event'],
  [/\/severity$/, 'severity needs at least one of at_least, at_most, in'],
];

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  array: 'a list',
  object: 'a map',
  boolean: 'true or false',
  number: 'a number',
  integer: 'a whole number',
  null: 'null',
};

/** A human message for one ajv error, or undefined for errors that only repeat another one. */
export function describeSchemaError(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'discriminator': // repeats the enum / required error on `type`
    case 'propertyNames': // repeats the pattern error on the name
      return undefined;
    case 'required':
      return `missing required property "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `unknown property "${String(params.additionalProperty)}"${unknownPropertyHint(error)}`;
    case 'type': {
      const types = String(params.type).split(',');
      return `must be ${types.map((type) => TYPE_NAMES[type] ?? type).join(' or ')}`;
    }
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}${enumHint(error)}`;
    case 'pattern':
      return PATTERN_MESSAGES[String(params.pattern)] ?? error.message;
    case 'minItems':
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : error.message;
    case 'uniqueItems':
      return `repeats item ${Math.min(Number(params.i), Number(params.j)) + 1}`;
    case 'minProperties':
    case 'maxProperties':
      return PROPERTY_COUNT_MESSAGES.find(([path]) => path.test(error.instancePath))?.[1] ?? error.message;
    default:
      return error.message;
  }
}

/**
 * `: did you mean "x"? (allowed: a, b)` after an unknown property's name (an `additionalProperties` error from
 * an ajv with `verbose`, which gives the parent schema), or '' when nothing is known.
 */
export function unknownPropertyHint(error: ErrorObject): string {
  const allowed = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
  const name = String((error.params as { additionalProperty?: unknown }).additionalProperty);
  return `${didYouMean(name, allowed)}${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`;
}

/**
 * ` (did you mean "x"?)` for an `enum` error whose value is close to an allowed one (ajv `verbose`). The
 * suggestion is one of the allowed values, so it never repeats the (possibly secret) value itself.
 */
export function enumHint(error: ErrorObject): string {
  const allowed = ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String);
  const suggestion = typeof error.data === 'string' ? closestName(error.data, allowed) : undefined;
  return suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
}
