import { FrozenMap } from './frozen-map.js';

/**
 * Freezes plain objects and arrays all the way down and replaces Maps by read-only ones. Functions are
 * frozen as objects, but what they close over (compiled regular expressions, the route index memo) is not
 * reachable and stays private.
 */
export function deepFreeze<T>(value: T): T {
  return freeze(value, new WeakSet()) as T;
}

function freeze(value: unknown, seen: WeakSet<object>): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  if (seen.has(value)) return value;
  seen.add(value);
  if (value instanceof FrozenMap) return value;
  if (value instanceof Map) {
    return new FrozenMap([...value].map(([key, item]) => [freeze(key, seen), freeze(item, seen)] as const));
  }
  if (typeof value !== 'function') {
    const record = value as Record<string | number, unknown>;
    const keys: Iterable<string | number> = Array.isArray(value) ? value.keys() : Object.keys(value);
    for (const key of keys) {
      const frozen = freeze(record[key], seen);
      if (frozen !== record[key]) record[key] = frozen;
    }
  }
  return Object.freeze(value);
}
