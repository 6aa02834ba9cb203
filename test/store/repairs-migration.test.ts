import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';

const tempDir = useTempDirs();

describe('SQLite migration 14 (repairs)', () => {
  it('rebuilds deliveries and attempts keeping every row, column, index and the id counter, and takes skipped', () => {
    const db = new Database(join(tempDir(), 'journal.db'));
    try {
      runSqliteMigrations(db, sqliteMigrations.slice(0, 13), 1);
      db.exec(`
        INSERT INTO events (id, source, kind, occurred_at, received_at, body, body_sha256, rules_version, matched_routes)
          VALUES ('evt_1', 'monitor', 'k', '2026-11-22T10:00:00Z', 1, x'7b7d', zeroblob(32), 'v', '[]');
        INSERT INTO deliveries (id, event_id, target, state, attempts, next_attempt_at, last_error, created_at,
            updated_at, held_by, throttle_key, suppressed_count, correlation_key, started_key)
          VALUES (7, 'evt_1', 'jira', 'dead', 1, 5, 'HTTP 404', 1, 2, NULL, 'th', 3, 'incident:inc_1', 1);
        INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome, status_code, detail)
          VALUES (7, 1, 3, 4, 'dead', 404, 'gone');
      `);
      const indexes = () =>
        db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'deliveries' ORDER BY name")
          .pluck()
          .all();
      const before = {
        deliveries: db.prepare('SELECT * FROM deliveries').all(),
        attempts: db.prepare('SELECT * FROM attempts').all(),
        indexes: indexes(),
      };
      runSqliteMigrations(db, sqliteMigrations, 2);
      expect(db.prepare('SELECT * FROM deliveries').all()).toEqual(before.deliveries);
      expect(db.prepare('SELECT * FROM attempts').all()).toEqual(before.attempts);
      expect(indexes()).toEqual(before.indexes);
      expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'deliveries'").pluck().get()).toBe(7);
      db.exec("UPDATE deliveries SET state = 'skipped' WHERE id = 7");
      db.exec(
        "INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome) VALUES (7, 2, 5, 0, 'skipped')",
      );
      expect(() => db.exec("UPDATE deliveries SET state = 'lost' WHERE id = 7")).toThrow(/CHECK/);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  });
});
