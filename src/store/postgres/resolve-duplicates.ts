import type { IngestItem, IngestResult } from '../store.js';

/** The oldest earlier event with an item's (source, body hash) received within its window, if any. */
export interface Original {
  readonly id: string;
  readonly receivedAt: number;
}

/**
 * Applies in-order dedupe to a group: item i is a duplicate when the journal already held a match
 * (`stored[i]`, looked up with item i's window) or an earlier item of the group that was stored is one.
 * Among several matches the oldest (received_at, then id, byte order) is the original, as in SQLite's lookup,
 * so a duplicate always names the copy that was delivered. Pure: the caller holds the dedupe locks.
 */
export function resolveDuplicates(
  items: readonly IngestItem[],
  stored: readonly (Original | undefined)[],
): { results: IngestResult[]; fresh: IngestItem[] } {
  const storedInGroup = new Map<string, Original[]>();
  const fresh: IngestItem[] = [];
  const results = items.map((item, index): IngestResult => {
    const { event } = item;
    const key = `${event.source}\n${event.bodySha256}`;
    const candidates = [stored[index], ...(storedInGroup.get(key) ?? [])].filter(
      (candidate): candidate is Original => candidate !== undefined && candidate.receivedAt >= item.dedupeSince,
    );
    const original = candidates.reduce<Original | undefined>(
      (oldest, candidate) => (oldest === undefined || isOlder(candidate, oldest) ? candidate : oldest),
      undefined,
    );
    if (original !== undefined) return { duplicate: true, eventId: original.id, deliveries: 0 };
    storedInGroup.set(key, [...(storedInGroup.get(key) ?? []), { id: event.id, receivedAt: event.receivedAt }]);
    fresh.push(item);
    return { duplicate: false, eventId: event.id, deliveries: item.targets.length };
  });
  return { results, fresh };
}

function isOlder(a: Original, b: Original): boolean {
  return a.receivedAt < b.receivedAt || (a.receivedAt === b.receivedAt && a.id < b.id);
}
