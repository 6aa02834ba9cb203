import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import type { IngestItem, Store } from '../src/store/store.js';
import { benchEvent } from './bench-event.js';

/** Events per `store.ingest` call: one transaction (one fsync) each, as a busy daemon's group commit would. */
const GROUP = 2_000;

/**
 * Fills a journal (a SQLite file, created at `journal`; or an open store, e.g. PostgreSQL's, on an empty
 * schema) so that it holds `count` events, each with one pending delivery to `target`, all due
 * already: what the engine finds after an outage or a burst. Written through `store.ingest` in big groups, so
 * the rows are exactly what the daemon writes. `perMs` events share each millisecond of receipt time (a
 * delivery is due from its event's receipt): 4 is a burst at 4,000 events/s, about what ingest sustains;
 * 0 puts them all at one instant, as `switchyard replay` does with the deliveries it re-queues. `keyOf` gives
 * each delivery a correlation key (issue 14; none without it), so that the engine sends one key's in order.
 */
export async function fillJournal(
  journal: string | Store,
  target: string,
  count: number,
  perMs = 4,
  keyOf?: (counter: number) => string,
): Promise<void> {
  const store = typeof journal === 'string' ? createSqliteStore({ path: journal }) : journal;
  try {
    await store.migrate();
    const firstAt = Date.now() - 60_000 - (perMs > 0 ? Math.ceil(count / perMs) : 0);
    for (let done = 0; done < count;) {
      const items: IngestItem[] = [];
      for (const end = Math.min(count, done + GROUP); done < end; done++) {
        const next = item(done, firstAt + (perMs > 0 ? Math.floor(done / perMs) : 0), target);
        items.push(keyOf === undefined ? next : { ...next, keys: [keyOf(done)] });
      }
      await store.ingest(items);
    }
  } finally {
    await store.close(); // SQLite: checkpoints the WAL into the file, so it can be copied as it is
  }
}

function item(counter: number, receivedAt: number, target: string): IngestItem {
  const body = Buffer.from(
    JSON.stringify({
      event: 'incident.created',
      timestamp: new Date(receivedAt).toISOString(),
      data: {
        incident_id: `inc_bench_${counter}`,
        severity: 'high',
        title: `Benchmark incident ${counter}: suspicious login burst`,
        host: `fs-${counter % 97}`,
      },
    }),
  );
  return {
    event: benchEvent(body, receivedAt, ['all']),
    targets: [target],
    dedupeSince: receivedAt,
  };
}
