import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { newId } from '../src/store/new-id.js';
import { SQLITE_WRITER } from '../src/store/sqlite/prepare-sqlite-statements.js';
import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import { dedupeKey } from '../src/store/sqlite/dedupe-key.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const GROUP = 20_000;
const KINDS = ['incident.created', 'incident.updated', 'incident.resolved', 'agent.offline', 'threat.detected'];
const SEVERITIES = ['low', 'medium', 'high', 'critical'];
const WORDS = ['login burst', 'disk full', 'malware', 'port scan', 'agent lost', 'policy breach'];

/**
 * A journal at `path` for the console benchmark: `count` events spread evenly over the last `span` ms (30 days,
 * the default retention), five kinds, four severities, a title each ("... host fs-N"; one event in 10,000 says "needle"),
 * one delivery each to soc-slack or ticketing: 2% dead (with an attempt and an HTTP 503 or 404 error),
 * 0.2% pending, the rest delivered. Migrated by the store, then filled with direct INSERTs in big unsynced
 * transactions (bench/fill-finished-journal.ts does the same): ingest's group commit would take many minutes.
 * The events per minute ingest would have kept (event_counts) are counted from them at the end.
 */
export async function fillConsoleJournal(
  path: string,
  count: number,
  now: number,
  span = 30 * DAY_MS,
): Promise<{ deadEventId: string }> {
  const store = createSqliteStore({ path });
  await store.migrate();
  await store.close();
  const db = new Database(path);
  let deadEventId = '';
  try {
    db.pragma('synchronous = OFF');
    const insertEvent = db.prepare(
      `INSERT INTO events (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version,
         matched_routes, title, dedupe_key) VALUES (?, 'monitor', ?, ?, ?, ?, ?, ?, 'bench', '["all"]', ?, ?)`,
    );
    const insertDelivery = db.prepare(
      `INSERT INTO deliveries (event_id, target, state, attempts, next_attempt_at, last_error, created_at, updated_at,
         retry_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertAttempt = db.prepare(
      `INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome, status_code, detail)
       VALUES (?, 1, ?, 120, 'dead', ?, ?)`,
    );
    const firstAt = now - span;
    const fill = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const at = firstAt + Math.floor((i * span) / count);
        const occurred = new Date(at).toISOString();
        const kind = KINDS[i % KINDS.length] ?? 'incident.created';
        const severity = SEVERITIES[Math.floor(i / 7) % SEVERITIES.length] ?? 'high';
        const title = `${i % 10_000 === 0 ? 'needle ' : ''}${WORDS[i % WORDS.length]} on host fs-${i % 997} (#${i})`;
        const body = Buffer.from(
          JSON.stringify({ event: kind, timestamp: occurred, data: { severity, title, host: `fs-${i % 997}` } }),
        );
        const id = newId('evt_', at);
        const hash = createHash('sha256').update(body).digest();
        insertEvent.run(id, kind, severity, occurred, at, body, hash, title, dedupeKey(hash));
        const dead = i % 50 === 7;
        const pending = !dead && i % 500 === 3;
        const state = dead ? 'dead' : pending ? 'pending' : 'delivered';
        const error = dead ? (i % 100 === 7 ? 'HTTP 503 Service Unavailable' : 'HTTP 404 not found') : null;
        const target = i % 3 === 0 ? 'ticketing' : 'soc-slack';
        const delivery = insertDelivery.run(
          id,
          target,
          state,
          dead ? 1 : 0,
          at,
          error,
          at,
          at + 200,
          at,
        ).lastInsertRowid;
        if (dead) {
          insertAttempt.run(delivery, at + 80, i % 100 === 7 ? 503 : 404, error);
          deadEventId = id;
        }
      }
    });
    for (let done = 0; done < count; done += GROUP) fill(done, Math.min(count, done + GROUP));
    // What ingest would have counted (migration 8), for the whole 30 days as a journal at its retention limit
    // holds: the overview reads these, not the events.
    db.exec(`INSERT INTO event_counts (minute, kind, severity, writer, count)
      SELECT (received_at / 60000) * 60000, kind, coalesce(severity, ''), '${SQLITE_WRITER}', count(*)
      FROM events GROUP BY 1, 2, 3`);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return { deadEventId };
}
