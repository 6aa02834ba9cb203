/**
 * The dedupe key (dedupe-key.ts) computed by SQL from a BLOB column, for the rows written before migration 10.
 * SQLite has no conversion from bytes to an integer, so it reads the 12 hex digits of the prefix one by one.
 */
export function dedupeKeySql(column: string): string {
  const digit = (k: number) => `(instr('0123456789ABCDEF', substr(hex(substr(${column}, 1, 6)), ${k}, 1)) - 1)`;
  let sql = digit(1);
  for (let k = 2; k <= 12; k += 1) sql = `(${sql} * 16 + ${digit(k)})`;
  return sql;
}
