import pg from 'pg';

/** What withValues writes in: a string, a safe integer, null, or an array of those (no nested arrays). */
export type WrittenValue = string | number | null | readonly (string | number | null)[];

/**
 * `text` with its parameters `$1`, `$2`... replaced by `values`, escaped: for a statement that goes with BEGIN or
 * COMMIT in one round trip (with-postgres-transaction.ts), which cannot take parameters. Strings are quoted
 * by pg's escapeLiteral (and may not hold a NUL); numbers must be safe integers, a negative one in parentheses;
 * null is NULL, and an array is `ARRAY[...]` of those, which the statement casts (`$1::text[]`) as it would a
 * parameter. Nothing else can end up in the SQL.
 */
export function withValues(text: string, values: readonly WrittenValue[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = values[Number(n) - 1];
    if (Array.isArray(value)) return `ARRAY[${value.map((item) => scalar(item, n)).join(',')}]`;
    return scalar(value, n);
  });
}

function scalar(value: unknown, n: string): string {
  // A NUL would end the protocol message early: PostgreSQL refuses the whole string as a broken message (class
  // 08, read as a lost connection), where a parameter would fail as bad data.
  if (typeof value === 'string' && !value.includes('\0')) return pg.escapeLiteral(value);
  // In parentheses, so that a minus sign before the parameter cannot make `--`, a comment.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value < 0 ? `(${value})` : String(value);
  if (value === null) return 'NULL';
  throw new RangeError(`parameter $${n}: not a string without NUL, an integer or null: ${JSON.stringify(value)}`);
}
