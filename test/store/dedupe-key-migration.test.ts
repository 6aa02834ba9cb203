import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { dedupeKey } from '../../src/store/sqlite/dedupe-key.js';
import { makeIngestItem, T0 } from './make-ingest-item.js';

const tempDir = useTempDirs();

/** A journal at schema 9 (before the dedupe key), with a way to write events as that schema had them. */
function journalAtSchema9(path: string) {
  const db = openSqliteDatabase(path, 1000);
  runSqliteMigrations(db, sqliteMigrations.slice(0, 9), 1);
  const statement = db.prepare(
    `INSERT INTO events (id, source, kind, occurred_at, received_at, body, body_sha256, rules_version, matched_routes)
     VALUES (?, 'monitor', 'k', '2026-11-22T10:00:00Z', ?, ?, ?, 'v', '[]')`,
  );
  const insert = (id: string, at: number, body: Buffer) =>
    statement.run(id, at, body, createHash('sha256').update(body).digest());
  return { db, insert };
}

describe('SQLite migration 10 (dedupe key)', () => {
  it('keys the events written before it, so a copy of one of them is still a duplicate', async () => {
    const path = join(tempDir(), 'journal.db');
    const bodies = ['{"a":1}', '{"b":2}', '{"c":3}'];
    const { db, insert } = journalAtSchema9(path);
    try {
      bodies.forEach((body, i) => insert(`evt_${i}`, T0 + i, Buffer.from(body)));
      runSqliteMigrations(db, sqliteMigrations, 2);
      const rows = db.prepare('SELECT body_sha256 AS hash, dedupe_key AS key FROM events').all() as {
        hash: Buffer;
        key: number;
      }[];
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row.key).toBe(dedupeKey(row.hash));
      const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'events'").pluck();
      expect(indexes.all()).toContain('events_dedupe_key');
      expect(indexes.all()).not.toContain('events_dedupe');
    } finally {
      db.close();
    }

    const store = createSqliteStore({ path });
    try {
      await store.migrate();
      const again = makeIngestItem({ body: bodies[1], receivedAt: T0 + 10 });
      const fresh = makeIngestItem({ body: '{"d":4}', receivedAt: T0 + 10 });
      expect(await store.ingest([again, fresh])).toEqual([
        { duplicate: true, eventId: 'evt_1', deliveries: 0 },
        { duplicate: false, eventId: fresh.event.id, deliveries: 2 },
      ]);
    } finally {
      await store.close();
    }
  });

  it('gives back the WAL space its rewrite of every event took', async () => {
    const path = join(tempDir(), 'journal.db');
    const { db, insert } = journalAtSchema9(path);
    try {
      db.transaction(() => {
        for (let i = 0; i < 2000; i += 1) {
          insert(`evt_${String(i).padStart(6, '0')}`, T0 + i, Buffer.from(JSON.stringify({ i, pad: 'x'.repeat(500) })));
        }
      })();
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    const store = createSqliteStore({ path });
    try {
      await store.migrate();
      expect(statSync(`${path}-wal`).size).toBe(0);
      const found = await store.findEvents({ source: 'monitor', order: 'newest', limit: 2 });
      expect(found.map((event) => event.id)).toEqual(['evt_001999', 'evt_001998']);
    } finally {
      await store.close();
    }
  });
});
