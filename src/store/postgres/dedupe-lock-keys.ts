import { createHash } from 'node:crypto';
import type { IngestItem } from '../store.js';

/**
 * The advisory-lock keys an ingest group takes, one per distinct (source, body hash) and throttle key, as decimal strings of
 * signed 64-bit integers (pg_advisory_xact_lock's bigint form), sorted ascending. Taking them in one global
 * order means two groups that share keys wait for each other instead of deadlocking. Derived from SHA-256 so
 * every instance computes the same key; `namespace` (the schema) keeps separate journals in one database
 * apart. Two pairs sharing a key (1 in 2^64) would only wait for each other needlessly.
 */
export function dedupeLockKeys(namespace: string, items: readonly IngestItem[]): string[] {
  const keys = new Set<bigint>();
  const add = (parts: readonly string[]) =>
    keys.add(
      createHash('sha256')
        .update(JSON.stringify([namespace, ...parts]))
        .digest()
        .readBigInt64BE(0),
    );
  for (const { event, throttles, groups, targets, incident } of items) {
    add([event.source, event.bodySha256]);
    // An incident record is read, folded and written back: one instance at a time per incident.
    if (incident !== undefined) add(['incident', event.source, incident.key]);
    // Issue 12: a throttle's decision counts earlier deliveries of its key, so instances take turns per key too.
    for (const throttle of throttles ?? []) if (throttle) add(['throttle', throttle.key]);
    // ...and a digest is joined (or opened) by one at a time, and not while it is being sent.
    groups?.forEach((group, index) => {
      if (group) add(groupLockParts(targets[index] ?? '', group.key));
    });
  }
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
}

/** The parts of a digest's lock key: ingest (joining) and sendDigest (closing) take the same one. */
export function groupLockParts(target: string, key: string): string[] {
  return ['group', target, key];
}

/** One advisory-lock key, as dedupeLockKeys makes them. */
export function lockKey(namespace: string, parts: readonly string[]): string {
  return String(
    createHash('sha256')
      .update(JSON.stringify([namespace, ...parts]))
      .digest()
      .readBigInt64BE(0),
  );
}
