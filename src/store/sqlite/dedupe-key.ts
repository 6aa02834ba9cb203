/**
 * The dedupe index's key (migration 10): the first 6 bytes of the body's SHA-256 as an unsigned integer. The
 * index it replaced held (source, the 32-byte hash, received_at) and, being keyed by a hash, took its inserts
 * at random places: every event dirtied a page of its own, the largest cost of the ingest transaction that grew
 * with the journal (bench/README.md, "The dedupe index"). A 6-byte integer makes the entries about a quarter
 * the size. It only narrows the search: the lookup still compares source and the whole hash on the row, so
 * two bodies sharing the prefix (1 in 2^48 per pair) cost a row read, never a false duplicate.
 */
export function dedupeKey(bodySha256: Buffer): number {
  return bodySha256.readUIntBE(0, 6);
}

/**
 * The same key computed by SQL from a BLOB column, for rows written before migration 10. SQLite has no
 * conversion from bytes to an integer, so it reads the 12 hex digits of the prefix one by one.
 */
export function dedupeKeySql(column: string): string {
  const digit = (k: number) => `(instr('0123456789ABCDEF', substr(hex(substr(${column}, 1, 6)), ${k}, 1)) - 1)`;
  let sql = digit(1);
  for (let k = 2; k <= 12; k += 1) sql = `(${sql} * 16 + ${digit(k)})`;
  return sql;
}
