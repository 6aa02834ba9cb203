import type { HttpCapture } from '../rules.js';
import type { PathSegment } from '../source/locate-path.js';
import type { TargetContext } from './target-context.js';

const BODY = /^body\.([^.]+(?:\.[^.]+)*)$/;
/** An HTTP header name (a token: RFC 9110 §5.1). */
const HEADER = /^header\.([!#$%&'*+.^_`|~0-9A-Za-z-]+)$/;

/** `capture: { ticket: 'body.key', location: 'header.Location' }`, checked so a typo is found by `check`. */
export function compileHttpCaptures(value: unknown, target: TargetContext, ...path: PathSegment[]): HttpCapture[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || target.isBroken(...path)) return [];
  const captures: HttpCapture[] = [];
  for (const [name, where] of Object.entries(value)) {
    if (typeof where !== 'string') continue;
    const body = BODY.exec(where)?.[1];
    const header = HEADER.exec(where)?.[1];
    if (body !== undefined) captures.push({ name, from: 'body', path: body.split('.') });
    else if (header !== undefined) captures.push({ name, from: 'header', header: header.toLowerCase() });
    else {
      const message = 'must be body.<field path> (a field of the JSON answer, e.g. body.key) or header.<name>';
      target.error('bad_capture', message, [...path, name]);
    }
  }
  return captures;
}
