import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('SQLite migration 4 (held deliveries)', () => {
  it('rebuilds deliveries with every row, id and attempt kept, never reusing a pruned id, foreign keys on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-migration-4-'));
    dirs.push(dir);
    const db = openSqliteDatabase(join(dir, 'journal.db'), 1000);
    try {
      runSqliteMigrations(db, sqliteMigrations.slice(0, 3), 1);
      db.exec(`
        INSERT INTO events (id, source, kind, occurred_at, received_at, body, body_sha256, rules_version, matched_routes)
          VALUES ('evt_1', 'monitor', 'k', '2026-11-22T10:00:00Z', 1, x'7b7d', zeroblob(32), 'v', '[]');
        INSERT INTO deliveries (event_id, target, state, attempts, next_attempt_at, created_at, updated_at,
            claim_token, retry_from, schedule_attempts, replay_generation)
          VALUES ('evt_1', 'tickets', 'dead', 2, 5, 1, 5, NULL, 1, 2, 1),
                 ('evt_1', 'slack', 'pending', 0, 5, 1, 5, 'tok', 1, 0, 0),
                 ('evt_1', 'mail', 'pending', 0, 5, 1, 5, NULL, 1, 0, 0);
        INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome) VALUES (1, 1, 2, 1, 'retry');
        DELETE FROM deliveries WHERE id = 3; -- pruned: its id must never come back
      `);
      const before = db.prepare('SELECT * FROM deliveries ORDER BY id').all();
      runSqliteMigrations(db, sqliteMigrations.slice(0, 4), 2);

      const after = db.prepare('SELECT * FROM deliveries ORDER BY id').all() as Record<string, unknown>[];
      expect(after).toEqual(
        before.map((row) => ({ ...(row as object), held_by: null, throttle_key: null, suppressed_count: 0 })),
      );
      expect(db.prepare('SELECT count(*) AS n FROM attempts WHERE delivery_id = 1').get()).toEqual({ n: 1 });
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      db.exec(`INSERT INTO deliveries (event_id, target, state, held_by, next_attempt_at, created_at, updated_at)
        VALUES ('evt_1', 'pager', 'silenced', 'sil_1', 5, 5, 5)`);
      expect(db.prepare("SELECT id FROM deliveries WHERE target = 'pager'").get()).toEqual({ id: 4 });
      expect(() => db.exec("UPDATE deliveries SET state = 'lost' WHERE id = 1")).toThrow(/CHECK constraint/);
      expect(() =>
        db.exec(
          `INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome) VALUES (99, 1, 1, 1, 'dead')`,
        ),
      ).toThrow(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });
});
