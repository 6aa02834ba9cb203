import { toValue } from 'liquidjs';

/** What Liquid itself prints for a value: nil is empty, arrays are joined without separator, the rest `String()`. */
export function stringifyOutput(value: unknown): string {
  const plain: unknown = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(stringifyOutput).join('');
  return String(plain);
}
