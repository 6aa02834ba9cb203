import type { Envelope } from '../../ingest/envelope.js';

/**
 * Reads a dotted path (already split) from the event: `event`, `timestamp`, `data`, `data.<key>...`.
 * Only own properties count, so `data.constructor` is absent rather than Object's constructor; a numeric
 * segment indexes a list. Undefined when the path does not resolve.
 */
export function readField(envelope: Envelope, path: readonly string[]): unknown {
  const [root, ...rest] = path;
  let value: unknown =
    root === 'event'
      ? envelope.event
      : root === 'timestamp'
        ? envelope.timestamp
        : root === 'data'
          ? envelope.data
          : undefined;
  for (const segment of rest) {
    if (Array.isArray(value)) {
      value = /^(?:0|[1-9]\d*)$/.test(segment) ? value[Number(segment)] : undefined;
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, segment)) {
      value = (value as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return value;
}
