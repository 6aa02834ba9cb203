/** `?` placeholders as `$1`, `$2`, ...: the shared SQL (console-sql.ts) is written for SQLite's. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${(n += 1)}`);
}
