import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { newId } from '../src/store/new-id.js';
import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import type { IngestItem } from '../src/store/store.js';
import { BENCH_ROUTE, BENCH_ROUTE_TARGETS, BENCH_SOURCE } from './start-daemon.js';

/** A journal behind bench/floor-server.ts: commits one group of bodies, answers each with its event id. */
export interface FloorJournal {
  /**
   * `ids`: the events' ids when they were given earlier (the `append` floor's inbox); `switchyardJournal` uses
   * them, `minimalJournal` makes its own.
   */
  commitGroup(bodies: readonly Buffer[], ids?: readonly string[]): Promise<readonly string[]>;
  close(): Promise<void>;
}

const DEDUPE_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** The prototype: each body appended to a one-table SQLite file, WAL, `synchronous = FULL`. */
export function minimalJournal(file: string): FloorJournal {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS events (id TEXT NOT NULL PRIMARY KEY, body BLOB NOT NULL) STRICT');
  const insert = db.prepare('INSERT INTO events (id, body) VALUES (?, ?)');
  const insertAll = db.transaction((bodies: readonly Buffer[]) => {
    const now = Date.now();
    return bodies.map((body) => {
      const id = newId('evt_', now);
      insert.run(id, body);
      return id;
    });
  });
  return { commitGroup: async (bodies) => insertAll.immediate(bodies), close: async () => void db.close() };
}

/**
 * Switchyard's SQLite store, written what the daemon writes for a benchmark event (bench/start-daemon.ts's
 * rules): the duplicate lookup, the event row with a title, a pending delivery per target of its route.
 */
export async function switchyardJournal(file: string): Promise<FloorJournal> {
  const store = createSqliteStore({ path: file });
  await store.migrate();
  const item = (body: Buffer, now: number, id: string | undefined): IngestItem => ({
    event: {
      id: id ?? newId('evt_', now),
      source: BENCH_SOURCE,
      kind: 'incident.created',
      severity: 'high',
      occurredAt: new Date(now).toISOString(),
      receivedAt: now,
      body,
      bodySha256: createHash('sha256').update(body).digest('hex'),
      rulesVersion: 'floor',
      matchedRoutes: [BENCH_ROUTE],
      // As long as the benchmark events' titles (bench/signed-event.ts); the floor does not parse the body.
      title: 'Benchmark incident 12345: suspicious login burst',
    },
    targets: [...BENCH_ROUTE_TARGETS],
    dedupeSince: now - DEDUPE_WINDOW_MS,
  });
  return {
    commitGroup: async (bodies, ids) => {
      const now = Date.now();
      const results = await store.ingest(bodies.map((body, i) => item(body, now, ids?.[i])));
      return results.map((result) => result.eventId);
    },
    close: () => store.close(),
  };
}
