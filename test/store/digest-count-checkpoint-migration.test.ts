import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { makeIngestItem, T0 } from './make-ingest-item.js';

const tempDir = useTempDirs();

describe('SQLite migration 9 (digest count checkpoint)', () => {
  it('takes the counts written before it as complete, so an open digest is not counted twice', async () => {
    const path = join(tempDir(), 'journal.db');
    const db = openSqliteDatabase(path, 1000);
    try {
      runSqliteMigrations(db, sqliteMigrations.slice(0, 8), 1);
      db.exec(`
        INSERT INTO events (id, source, kind, occurred_at, received_at, body, body_sha256, rules_version, matched_routes)
          VALUES ('evt_1', 'monitor', 'k', '2026-11-22T10:00:00Z', ${T0}, x'7b7d', zeroblob(32), 'v', '[]'),
                 ('evt_2', 'monitor', 'k', '2026-11-22T10:00:00Z', ${T0}, x'7b7d', zeroblob(32), 'v', '[]');
        INSERT INTO digests (id, route, target, group_key, max_events, first_at, due_at, count)
          VALUES ('dig_a', 'storm', 'mail', 'storm|a', 10, ${T0}, ${T0 + 30_000}, 2);
        INSERT INTO deliveries (event_id, target, state, held_by, next_attempt_at, created_at, updated_at)
          VALUES ('evt_1', 'mail', 'grouped', 'dig_a', ${T0}, ${T0}, ${T0}),
                 ('evt_2', 'mail', 'grouped', 'dig_a', ${T0}, ${T0}, ${T0});
      `);
      runSqliteMigrations(db, sqliteMigrations, 2);
      expect(db.prepare('SELECT as_of FROM digest_count_checkpoint').pluck().get()).toBe(2);
    } finally {
      db.close();
    }

    const store = createSqliteStore({ path });
    try {
      await store.migrate();
      const group = { route: 'storm', key: 'storm|a', waitMs: 30_000, intervalMs: 0, maxEvents: 10 };
      await store.ingest([{ ...makeIngestItem({ targets: ['mail'], receivedAt: T0 + 1 }), groups: [group] }]);
      let count: number | undefined;
      await store.sendDigest('dig_a', T0 + 30_000, (digest) => {
        count = digest.count;
        return { ...makeIngestItem({ receivedAt: T0 + 30_000 }).event, kind: 'switchyard.digest' };
      });
      expect(count).toBe(3);
    } finally {
      await store.close();
    }
  });
});
