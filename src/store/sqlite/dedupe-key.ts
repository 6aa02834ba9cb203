/**
 * The dedupe index's key (migration 10): the first 6 bytes of the body's SHA-256 as an unsigned integer. The
 * index it replaced held (source, the 32-byte hash, received_at) and, being keyed by a hash, took its inserts
 * at random places: every event dirtied a page of its own, the largest cost of the ingest transaction that grew
 * with the journal (docs/decisions/sqlite-dedupe-key.md). A 6-byte integer makes the entries about a third of
 * the size. It only narrows the search: the lookup still compares source and the whole hash on the row, so two
 * bodies sharing the prefix (1 in 2^48 per pair) cost a row read, never a false duplicate.
 */
export function dedupeKey(bodySha256: Buffer): number {
  return bodySha256.readUIntBE(0, 6);
}
