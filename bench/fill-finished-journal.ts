import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { newId } from '../src/store/new-id.js';
import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import { dedupeKey } from '../src/store/sqlite/dedupe-key.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const GROUP = 20_000;

/**
 * A journal at `path` holding `count` events received 40 days ago, each with one delivered delivery and its
 * attempt: all of it prunable under the default retention. Migrated by the store (so it has auto_vacuum
 * INCREMENTAL, as a new journal does), then filled with direct INSERTs in big transactions, unsynced: ingest's
 * group commit would take minutes for a million events, and durability does not matter for a bench file.
 */
export async function fillFinishedJournal(path: string, count: number): Promise<void> {
  const store = createSqliteStore({ path });
  await store.migrate();
  await store.close();
  const db = new Database(path);
  try {
    db.pragma('synchronous = OFF');
    const insertEvent = db.prepare(
      `INSERT INTO events (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version,
         matched_routes, dedupe_key) VALUES (?, 'monitor', 'incident.created', 'high', ?, ?, ?, ?, 'bench', '["all"]', ?)`,
    );
    const insertDelivery = db.prepare(
      `INSERT INTO deliveries (event_id, target, state, attempts, next_attempt_at, created_at, updated_at, retry_from)
       VALUES (?, 'soc-slack', 'delivered', 1, ?, ?, ?, ?)`,
    );
    const insertAttempt = db.prepare(
      `INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome, status_code)
       VALUES (?, 1, ?, 120, 'delivered', 200)`,
    );
    const firstAt = Date.now() - 40 * DAY_MS;
    const fill = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const at = firstAt + Math.floor(i / 4);
        const occurred = new Date(at).toISOString();
        const body = Buffer.from(
          JSON.stringify({
            event: 'incident.created',
            timestamp: occurred,
            data: { incident_id: `inc_old_${i}`, severity: 'high', title: `Old incident ${i}`, host: `fs-${i % 97}` },
          }),
        );
        const id = newId('evt_', at);
        const hash = createHash('sha256').update(body).digest();
        insertEvent.run(id, occurred, at, body, hash, dedupeKey(hash));
        const delivery = insertDelivery.run(id, at, at, at + 200, at).lastInsertRowid;
        insertAttempt.run(delivery, at + 80);
      }
    });
    for (let done = 0; done < count; done += GROUP) fill(done, Math.min(count, done + GROUP));
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
