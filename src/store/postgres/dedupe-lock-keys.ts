import { createHash } from 'node:crypto';
import type { IngestItem } from '../store.js';

/**
 * The advisory-lock keys an ingest group takes, one per distinct (source, body hash), as decimal strings of
 * signed 64-bit integers (pg_advisory_xact_lock's bigint form), sorted ascending. Taking them in one global
 * order means two groups that share keys wait for each other instead of deadlocking. Derived from SHA-256 so
 * every instance computes the same key; `namespace` (the schema) keeps separate journals in one database
 * apart. Two pairs sharing a key (1 in 2^64) would only wait for each other needlessly.
 */
export function dedupeLockKeys(namespace: string, items: readonly IngestItem[]): string[] {
  const keys = new Set<bigint>();
  for (const { event } of items) {
    const digest = createHash('sha256')
      .update(JSON.stringify([namespace, event.source, event.bodySha256]))
      .digest();
    keys.add(digest.readBigInt64BE(0));
  }
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
}
