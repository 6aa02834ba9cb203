import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteRetention } from '../../src/store/sqlite/create-sqlite-retention.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { enableIncrementalVacuum } from '../../src/store/sqlite/enable-incremental-vacuum.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';
import { finishDeliveries } from './retention-store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describe('SQLite retention: space', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function journalPath(): Promise<string> {
    const journal = await tempSqliteJournal();
    cleanups.push(() => journal.dispose());
    return journal.path;
  }
  function autoVacuum(path: string): unknown {
    const db = new Database(path, { readonly: true });
    try {
      return db.pragma('auto_vacuum', { simple: true });
    } finally {
      db.close();
    }
  }

  it('gives the space of pruned events back to the file system', async () => {
    const path = await journalPath();
    const store = createSqliteStore({ path });
    cleanups.push(() => store.close());
    await store.migrate();
    expect(autoVacuum(path)).toBe(2); // INCREMENTAL from the start
    const items = Array.from({ length: 2000 }, (_, i) =>
      makeIngestItem({ receivedAt: T0 + i, targets: ['slack'], body: `{"n":${i},"pad":"${'x'.repeat(2000)}"}` }),
    );
    for (let i = 0; i < items.length; i += 200) await store.ingest(items.slice(i, i + 200));
    await finishDeliveries(store, 'slack', 'delivered', T0 + DAY_MS);
    const checkpoint = () => {
      const db = new Database(path);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      return statSync(path).size;
    };
    const before = checkpoint();
    expect(before).toBeGreaterThan(4_000_000);

    let after: string | undefined;
    do {
      after = (await store.pruneBatch({ eventsBefore: T0 + 10 * DAY_MS, deadBefore: T0, after, limit: 500 })).next;
    } while (after !== undefined);
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
    expect(checkpoint()).toBeLessThan(before / 10);
  });

  it('turns foreign-key checks back on after a batch, also after a failed one', async () => {
    const path = await journalPath();
    const db = openSqliteDatabase(path, 0);
    cleanups.push(() => db.close());
    runSqliteMigrations(db, sqliteMigrations, T0);
    const retention = createSqliteRetention(db, path);
    expect(retention.pruneBatch({ eventsBefore: T0, deadBefore: T0, limit: 10 })).toMatchObject({ events: 0 });
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE'); // another connection holds the write lock: the batch fails at once
    expect(() => retention.pruneBatch({ eventsBefore: T0, deadBefore: T0, limit: 10 })).toThrow(/locked/);
    other.exec('ROLLBACK');
    other.close();
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      db
        .prepare(
          "INSERT INTO deliveries (event_id, target, next_attempt_at, created_at, updated_at) VALUES ('evt_none', 't', 0, 0, 0)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('converts an existing small journal to incremental vacuum when migrating, keeping its rows', async () => {
    const path = await journalPath();
    const db = openSqliteDatabase(path, 1000);
    runSqliteMigrations(db, sqliteMigrations, T0);
    db.close();
    expect(autoVacuum(path)).toBe(0);

    const store = createSqliteStore({ path });
    cleanups.push(() => store.close());
    await store.migrate();
    expect(autoVacuum(path)).toBe(2);
  });

  it('leaves a journal over the size limit as it is (switchyard prune --vacuum converts it)', async () => {
    const path = await journalPath();
    const db = openSqliteDatabase(path, 1000);
    cleanups.push(() => db.close());
    runSqliteMigrations(db, sqliteMigrations, T0);
    expect(enableIncrementalVacuum(db, 4096)).toBe('too-large');
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    expect(enableIncrementalVacuum(db, Number.POSITIVE_INFINITY)).toBe('converted');
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(enableIncrementalVacuum(db, 0)).toBe('already');
  });
});
