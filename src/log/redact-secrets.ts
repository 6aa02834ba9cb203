const MASK = '[redacted]';

/** Returns a copy of a log record in which every string containing a secret has it replaced by a mask. */
export function redactSecrets<T>(value: T, secrets: ReadonlySet<string>): T {
  if (secrets.size === 0) return value;
  return walk(value, secrets, 0) as T;
}

function walk(value: unknown, secrets: ReadonlySet<string>, depth: number): unknown {
  if (typeof value === 'string') return maskString(value, secrets);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return maskString(value.message, secrets);
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets, depth + 1));
  const out: Record<string | symbol, unknown> = {};
  for (const key of Object.keys(value)) {
    // winston filters on the record's level: masking it would silently drop the line.
    const keep = depth === 0 && key === 'level';
    out[key] = keep
      ? (value as Record<string, unknown>)[key]
      : walk((value as Record<string, unknown>)[key], secrets, depth + 1);
  }
  // winston keeps its level and formatted message under symbols; copy them across untouched.
  for (const symbol of Object.getOwnPropertySymbols(value)) out[symbol] = (value as Record<symbol, unknown>)[symbol];
  return out;
}

function maskString(text: string, secrets: ReadonlySet<string>): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(MASK);
  return result;
}
