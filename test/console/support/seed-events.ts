import { createSqliteStore } from '../../../src/store/sqlite/create-sqlite-store.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';

/**
 * Writes `count` events straight into a running daemon's SQLite journal (through a connection of its own, as
 * another instance would), routed nowhere: thousands in a second, where signed webhooks would take minutes.
 */
export async function seedEvents(
  dbPath: string,
  count: number,
  describe: (index: number) => { receivedAt: number; title?: string; severity?: string | null },
): Promise<void> {
  const store = createSqliteStore({ path: dbPath });
  try {
    for (let start = 0; start < count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start) }, (_, offset) => {
        const { title, ...options } = describe(start + offset);
        const item = makeIngestItem({ ...options, targets: [] });
        return { ...item, event: { ...item.event, matchedRoutes: [], title: title ?? null } };
      });
      await store.ingest(batch);
    }
  } finally {
    await store.close();
  }
}
