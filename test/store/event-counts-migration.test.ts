import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';
import { newId } from '../../src/store/new-id.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';

const HOUR = 3_600_000;
const tempDir = useTempDirs();

describe('SQLite migration 8 (event counts)', () => {
  it('counts the events of the last 48 hours by the wall clock, and none older', async () => {
    const dir = tempDir();
    const path = join(dir, 'journal.db');
    const now = Date.now();
    const minute = (at: number) => Math.floor(at / 60_000) * 60_000;
    const events: [at: number, kind: string, severity: string | null][] = [
      [now - 49 * HOUR, 'k', 'high'],
      [now - 47 * HOUR, 'k', 'high'],
      [now - HOUR, 'k', 'high'],
      [now - HOUR, 'k', 'high'],
      [now - HOUR, 'k', null],
      [now - HOUR, 'other', 'low'],
    ];
    const db = openSqliteDatabase(path, 1000);
    try {
      runSqliteMigrations(db, sqliteMigrations.slice(0, 7), 1);
      const insert = db.prepare(
        `INSERT INTO events (id, source, kind, severity, occurred_at, received_at, body, body_sha256, rules_version,
           matched_routes) VALUES (?, 'monitor', ?, ?, '2026-11-22T10:00:00Z', ?, x'7b7d', zeroblob(32), 'v', '[]')`,
      );
      for (const [at, kind, severity] of events) insert.run(newId('evt_', at), kind, severity, at);
      runSqliteMigrations(db, sqliteMigrations, 2);
    } finally {
      db.close();
    }

    const store = createSqliteStore({ path });
    try {
      await store.migrate();
      expect(await store.eventsPerMinute(0)).toEqual([
        { minute: minute(now - 47 * HOUR), kind: 'k', severity: 'high', count: 1 },
        { minute: minute(now - HOUR), kind: 'k', severity: null, count: 1 },
        { minute: minute(now - HOUR), kind: 'k', severity: 'high', count: 2 },
        { minute: minute(now - HOUR), kind: 'other', severity: 'low', count: 1 },
      ]);
    } finally {
      await store.close();
    }
  });
});
