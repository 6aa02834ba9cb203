import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('SQLite migration 3 (replay generation)', () => {
  it('recounts `attempts` from the history (a replay used to reset it) and keeps the old count as the budget', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-migration-3-'));
    dirs.push(dir);
    const db = new Database(join(dir, 'journal.db'));
    try {
      runSqliteMigrations(db, sqliteMigrations.slice(0, 2), 1);
      db.exec(`
        INSERT INTO events (id, source, kind, occurred_at, received_at, body, body_sha256, rules_version, matched_routes)
          VALUES ('evt_1', 'monitor', 'k', '2026-11-22T10:00:00Z', 1, x'7b7d', zeroblob(32), 'v', '[]');
        -- Replayed after two attempts (attempts reset to 0), then retried once: 1 counted, 3 in the history.
        INSERT INTO deliveries (event_id, target, state, attempts, next_attempt_at, created_at, updated_at)
          VALUES ('evt_1', 'tickets', 'pending', 1, 5, 1, 5);
        INSERT INTO attempts (delivery_id, number, started_at, duration_ms, outcome)
          VALUES (1, 1, 2, 1, 'retry'), (1, 2, 3, 1, 'dead'), (1, 3, 4, 1, 'retry');
      `);
      runSqliteMigrations(db, sqliteMigrations, 2);
      expect(
        db
          .prepare('SELECT attempts, schedule_attempts AS scheduled, replay_generation AS generation FROM deliveries')
          .get(),
      ).toEqual({ attempts: 3, scheduled: 1, generation: 0 });
    } finally {
      db.close();
    }
  });
});
