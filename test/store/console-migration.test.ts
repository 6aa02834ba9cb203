import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';

const tempDir = useTempDirs();

describe('SQLite migration 6 (console)', () => {
  it('keeps older events, with no title (not found by a title search), and indexes deliveries by update', async () => {
    const dir = tempDir();
    const path = join(dir, 'journal.db');
    const db = new Database(path);
    try {
      runSqliteMigrations(db, sqliteMigrations.slice(0, 5), 1);
      db.exec(`
        INSERT INTO events (id, source, kind, occurred_at, received_at, body, body_sha256, rules_version, matched_routes)
          VALUES ('evt_1', 'monitor', 'k', '2026-11-22T10:00:00Z', 1, x'7b7d', zeroblob(32), 'v', '[]');
      `);
      runSqliteMigrations(db, sqliteMigrations, 2);
      const plan = db
        .prepare('EXPLAIN QUERY PLAN SELECT id FROM deliveries WHERE (updated_at, id) > (?, ?) ORDER BY updated_at, id')
        .all(0, 0) as { detail: string }[];
      expect(plan.map((row) => row.detail).join(' ')).toContain('deliveries_by_update');
    } finally {
      db.close();
    }
    const store = createSqliteStore({ path });
    try {
      expect(await store.findEvents({})).toEqual([expect.objectContaining({ id: 'evt_1', title: null })]);
      expect(await store.findEvents({ titleContains: 'k' })).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
