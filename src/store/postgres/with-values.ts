import pg from 'pg';

/**
 * `text` with its parameters `$1`, `$2`... replaced by `values`, escaped: for a statement that goes with BEGIN or
 * COMMIT in one round trip (with-postgres-transaction.ts), which cannot take parameters. Strings are quoted
 * by pg's escapeLiteral; numbers must be safe integers, so nothing else can end up in the SQL.
 */
export function withValues(text: string, values: readonly (string | number)[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = values[Number(n) - 1];
    if (typeof value === 'string') return pg.escapeLiteral(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    throw new RangeError(`parameter $${n}: not a string or an integer: ${JSON.stringify(value)}`);
  });
}
