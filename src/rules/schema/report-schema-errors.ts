import type { ErrorObject } from 'ajv';
import type { Locator, PathSegment } from '../source/locate-path.js';
import { parseJsonPointer } from './parse-json-pointer.js';
import type { ProblemSink } from '../source/problem-sink.js';
import { describeSchemaError } from './describe-schema-error.js';
import { displayPath } from './display-path.js';

export interface SchemaErrorOptions {
  /** Errors on these values are not reported (e.g. a value whose `${VAR}` could not be expanded). */
  readonly skip?: (path: readonly PathSegment[]) => boolean;
  /** Extra words for a value's message, e.g. which `${VAR}` it came from (never the value itself). */
  readonly origin?: (path: readonly PathSegment[]) => string | undefined;
}

/**
 * Turns ajv errors into located problems. Messages never quote the value, which may hold a secret
 * substituted from the environment.
 */
export function reportSchemaErrors(
  errors: readonly ErrorObject[],
  locate: Locator,
  sink: ProblemSink,
  options: SchemaErrorOptions = {},
): void {
  const seen = new Set<string>();
  for (const error of errors) {
    const message = describeSchemaError(error);
    if (message === undefined) continue;
    const params = error.params as Record<string, unknown>;
    const parent = parseJsonPointer(error.instancePath);
    let path = parent;
    let part: 'value' | 'key' = 'value';
    let subject = '';
    if (error.keyword === 'additionalProperties') {
      path = [...parent, String(params.additionalProperty)];
      part = 'key';
    } else if (error.propertyName !== undefined) {
      path = [...parent, error.propertyName];
      part = 'key';
      subject = `key ${JSON.stringify(error.propertyName)} `;
    } else if (error.keyword === 'uniqueItems') {
      // ajv's two uniqueItems loops disagree on which of i and j is the later item; point at the later one.
      path = [...parent, Math.max(Number(params.i), Number(params.j))];
    }
    if (options.skip?.(path) === true) continue;
    const origin = part === 'value' ? options.origin?.(path) : undefined;
    const text = `${displayPath(parent)}: ${subject}${message}${origin === undefined ? '' : ` (${origin})`}`;
    const key = `${error.instancePath}\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    sink.error('schema', text, locate(path, part));
  }
}
