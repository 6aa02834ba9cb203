import type { TargetContext } from './target-context.js';

/**
 * Headers Switchyard sets itself: the body's framing and type, the delivery id receivers dedupe on, and the
 * signature. A static value would be wrong for some request, so writing one is an error.
 */
const RESERVED = new Map<string, string>([
  ['content-type', 'it is application/json, or content_type with raw_body'],
  ['content-length', 'it is computed from the body'],
  ['transfer-encoding', 'it is computed from the body'],
  ['host', 'it comes from url'],
  ['connection', 'connections are managed by Switchyard (keep-alive)'],
  ['idempotency-key', 'it is the delivery id, stable across attempts'],
  ['x-switchyard-signature', 'it is computed from the body (see sign)'],
]);

/** Static request headers, checked for clashes with what Switchyard sends (names compare case-insensitively). */
export function compileHttpHeaders(
  headers: Readonly<Record<string, unknown>> | undefined,
  hasAuth: boolean,
  target: TargetContext,
): Record<string, string> {
  const compiled: Record<string, string> = {};
  if (headers === null || typeof headers !== 'object' || target.isBroken('headers')) return compiled;
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const reserved = RESERVED.get(lower);
    const first = seen.get(lower);
    if (reserved !== undefined) {
      target.error('reserved_header', `${name} is set by Switchyard: ${reserved}`, ['headers', name], 'key');
    } else if (lower === 'authorization' && hasAuth) {
      target.error('conflicting_options', 'Authorization cannot be combined with auth', ['headers', name], 'key');
    } else if (first !== undefined) {
      target.error('duplicate_header', `${name} repeats ${first} (header names ignore case)`, ['headers', name], 'key');
    }
    seen.set(lower, first ?? name);
    if (typeof value === 'string') Object.defineProperty(compiled, name, { value, enumerable: true });
  }
  return compiled;
}
