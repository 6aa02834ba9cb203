import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';

const tempDir = useTempDirs();

describe('SQLite migration 7 (digest members)', () => {
  it('gives each digest the delivery before its first, and its deliveries stay found by digest and by hold', async () => {
    const dir = tempDir();
    const path = join(dir, 'journal.db');
    const db = openSqliteDatabase(path, 1000);
    try {
      runSqliteMigrations(db, sqliteMigrations.slice(0, 5), 1);
      db.exec(`
        INSERT INTO events (id, source, kind, occurred_at, received_at, body, body_sha256, rules_version, matched_routes)
          VALUES ('evt_1', 'monitor', 'k', '2026-11-22T10:00:00Z', 1, x'7b7d', zeroblob(32), 'v', '[]'),
                 ('evt_2', 'monitor', 'k', '2026-11-22T10:00:00Z', 2, x'7b7d', zeroblob(32), 'v', '[]'),
                 ('evt_3', 'monitor', 'k', '2026-11-22T10:00:00Z', 3, x'7b7d', zeroblob(32), 'v', '[]');
        INSERT INTO deliveries (event_id, target, state, held_by, next_attempt_at, created_at, updated_at)
          VALUES ('evt_1', 'slack', 'pending', NULL, 1, 1, 1),
                 ('evt_1', 'mail', 'grouped', 'dig_a', 1, 1, 1),
                 ('evt_2', 'mail', 'grouped', 'dig_b', 2, 2, 2),
                 ('evt_3', 'mail', 'grouped', 'dig_a', 3, 3, 3),
                 ('evt_3', 'pager', 'silenced', 'sil_1', 3, 3, 3);
        INSERT INTO digests (id, route, target, group_key, max_events, first_at, due_at)
          VALUES ('dig_a', 'r', 'mail', 'a', 10, 1, 0), ('dig_b', 'r', 'mail', 'b', 10, 2, 0),
                 ('dig_c', 'r', 'slack', 'c', 10, 3, 99);
      `);
      runSqliteMigrations(db, sqliteMigrations.slice(0, 7), 2);
      expect(db.prepare('SELECT id, first_delivery AS first FROM digests ORDER BY id').all()).toEqual([
        { id: 'dig_a', first: 1 },
        { id: 'dig_b', first: 2 },
        { id: 'dig_c', first: 0 },
      ]);
    } finally {
      db.close();
    }

    const store = createSqliteStore({ path });
    try {
      await store.migrate();
      const ids = async (filter: object) => (await store.findDeliveries(filter)).map((d) => d.id).sort();
      expect(await ids({ heldBy: 'dig_a' })).toEqual(['dlv_2', 'dlv_4']);
      expect(await ids({ heldBy: 'dig_a', state: 'grouped' })).toEqual(['dlv_2', 'dlv_4']);
      expect(await ids({ heldBy: 'dig_a', state: 'silenced' })).toEqual([]);
      expect(await ids({ heldBy: 'sil_1' })).toEqual(['dlv_5']);
      expect(await ids({ heldBy: 'sil_1', state: 'silenced' })).toEqual(['dlv_5']);
      expect(await ids({ heldBy: 'dig_none' })).toEqual([]);

      const sent: string[][] = [];
      await store.sendDigest('dig_a', 10, (digest, events) => {
        sent.push(events.map((event) => event.id));
        return {
          id: 'evt_digest',
          source: 'switchyard',
          kind: 'switchyard.digest',
          severity: null,
          occurredAt: '2026-11-22T10:00:10Z',
          receivedAt: 10,
          body: Buffer.from('{}'),
          bodySha256: '00'.repeat(32),
          rulesVersion: 'v',
          matchedRoutes: [digest.route],
        };
      });
      expect(sent).toEqual([['evt_1', 'evt_3']]);
    } finally {
      await store.close();
    }
  });
});
