import type { PathSegment } from '../source/locate-path.js';

/** Splits an ajv `instancePath` (a JSON Pointer, RFC 6901) into keys and list indexes. */
export function parseJsonPointer(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(?:0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}
