/**
 * `'{1,-2,3}'::bigint[]`: integers written into a statement, for the one that goes with BEGIN in one round
 * trip (with-postgres-transaction.ts), which cannot take parameters. Anything but an integer is refused, so
 * nothing else can end up in the SQL.
 */
export function bigintArrayLiteral(values: readonly (number | string)[]): string {
  for (const value of values) {
    if (!/^-?\d{1,19}$/.test(String(value))) throw new RangeError(`not an integer: ${JSON.stringify(value)}`);
  }
  return `'{${values.join(',')}}'::bigint[]`;
}
