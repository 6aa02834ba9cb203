import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { pendingTargetsSql } from '../../src/store/pending-targets-sql.js';
import { COUNT_SLICE_SQL, LAST_DELIVERY_ID_SQL, SLICE_END_SQL } from '../../src/store/sqlite/delivery-count-sql.js';
import { eventFilterSql } from '../../src/store/sqlite/event-filter-sql.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import type { Store } from '../../src/store/store.js';
import { makeIngestItem } from './make-ingest-item.js';
import { describeDeliveryStoreContract } from './delivery-store-contract.js';
import { describeHeldRetentionStoreContract } from './held-retention-store-contract.js';
import { describeKeyOrderStoreContract } from './key-order-store-contract.js';
import { describeRetentionStoreContract } from './retention-store-contract.js';
import { describeSilenceStoreContract } from './silence-store-contract.js';
import { describeStoreContract } from './store-contract.js';
import { tempSqliteJournal } from './temp-sqlite-journal.js';

describeStoreContract('SQLite', () => tempSqliteJournal());
describeSilenceStoreContract('SQLite', () => tempSqliteJournal());
describeDeliveryStoreContract('SQLite', () => tempSqliteJournal());
describeKeyOrderStoreContract('SQLite', () => tempSqliteJournal());

describe('SQLite store', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function journal(busyTimeoutMs?: number) {
    const created = await tempSqliteJournal(busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
    cleanups.push(() => created.dispose());
    return created;
  }
  async function migrated(path: string, busyTimeoutMs?: number): Promise<Store> {
    const store = createSqliteStore(busyTimeoutMs === undefined ? { path } : { path, busyTimeoutMs });
    cleanups.push(() => store.close());
    await store.migrate();
    return store;
  }
  function connect(path: string): Database.Database {
    const db = new Database(path, { timeout: 0 });
    cleanups.push(() => db.close());
    return db;
  }

  it('creates the missing folders of the journal path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-store-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const store = await migrated(join(dir, 'data', 'nested', 'journal.db'));
    await store.ingest([makeIngestItem()]);
    expect(await store.counts()).toEqual({ events: 1, deliveries: 2 });
  });

  it('opens the journal in WAL mode with synchronous FULL, foreign keys and the busy timeout', async () => {
    const { path } = await journal();
    const db = openSqliteDatabase(path, 750);
    cleanups.push(() => db.close());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(750);
  });

  it('upgrades a journal written by migration 1: pending deliveries keep their schedule and budget', async () => {
    const { path } = await journal();
    const db = connect(path);
    runSqliteMigrations(db, sqliteMigrations.slice(0, 1), 0);
    db.prepare(
      `INSERT INTO events VALUES ('evt_1', 'm', 'incident.created', NULL, 't', 1000, x'7b7d', zeroblob(32), 'v', '[]')`,
    ).run();
    db.prepare(
      `INSERT INTO deliveries (event_id, target, next_attempt_at, created_at, updated_at) VALUES ('evt_1', 's', 5000, 1000, 1000)`,
    ).run();
    db.close();

    const store = await migrated(path);
    const [claimed] = await store.claimDue({ target: 's', now: 5000, limit: 1, leaseMs: 1 });
    expect(claimed).toMatchObject({ retryFrom: 1000, delivery: { id: 'dlv_1', attempts: 0 } });
  });

  it('leaves the journal file in WAL mode, as another connection sees it', async () => {
    const { path } = await journal();
    await migrated(path);
    expect(connect(path).pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('refuses a journal whose schema is newer than this code, and changes nothing', async () => {
    const { path } = await journal();
    const first = await migrated(path);
    const item = makeIngestItem();
    await first.ingest([item]);
    await first.close();
    connect(path).prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 0)").run();

    const store = createSqliteStore({ path });
    cleanups.push(() => store.close());
    await expect(store.migrate()).rejects.toMatchObject({
      code: 'journal_schema_too_new',
      message: expect.stringContaining('version 99'),
    });
    await expect(store.ingest([makeIngestItem()])).rejects.toMatchObject({ code: 'journal_schema_too_new' });
    await expect(store.counts()).rejects.toMatchObject({ code: 'journal_schema_too_new' });
    const rows = connect(path).prepare('SELECT count(*) AS events FROM events').get();
    expect(rows).toEqual({ events: 1 });
  });

  it('answers journal_unavailable while another connection holds the write lock, then recovers', async () => {
    const { path } = await journal();
    const store = await migrated(path, 200);
    const other = connect(path);
    other.exec('BEGIN IMMEDIATE');
    const item = makeIngestItem();

    const started = performance.now();
    const error: unknown = await store.ingest([item]).catch((e: unknown) => e);
    const waited = performance.now() - started;

    expect(error).toMatchObject({ code: 'journal_unavailable', status: 503, cause: { code: 'SQLITE_BUSY' } });
    // Waited for the busy timeout instead of failing at once, and did not hang (bounds are loose on purpose).
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(waited).toBeLessThan(5_000);
    other.exec('ROLLBACK');
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
    expect(await store.ingest([item])).toEqual([{ duplicate: false, eventId: item.event.id, deliveries: 2 }]);
  });

  it('serves the dedupe lookup and the delivery engine\'s "due" query from indexes', async () => {
    const { path } = await journal();
    await migrated(path);
    const db = connect(path);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ');
    const dedupe = plan(
      "SELECT id FROM events WHERE dedupe_key = 1 AND received_at >= 0 AND source = 'm' AND body_sha256 = x'00' ORDER BY received_at LIMIT 1",
    );
    expect(dedupe).toContain('USING INDEX events_dedupe_key (dedupe_key=? AND received_at>?)');
    expect(dedupe).not.toContain('TEMP B-TREE'); // the index gives the order: no sort per lookup
    // Listings filtered by source (the console, GET /events?source=) find the source's rows through an index.
    const { where, params } = eventFilterSql({ source: 'm', order: 'newest' });
    const bySource = (
      db
        .prepare(`EXPLAIN QUERY PLAN SELECT id FROM events ${where} ORDER BY events.id DESC LIMIT 50`)
        .all(...params) as {
        detail: string;
      }[]
    ).map((row) => row.detail);
    expect(bySource.join('; ')).toMatch(/USING (COVERING )?INDEX events_by_source \(source=\?\)/);
    expect(bySource.join('; ')).not.toContain('TEMP B-TREE');
    expect(
      plan(
        "SELECT id FROM deliveries WHERE state = 'pending' AND target = 't' AND next_attempt_at <= 0 ORDER BY next_attempt_at, id LIMIT 50",
      ),
    ).toMatch(/USING (COVERING )?INDEX deliveries_due/);
    expect(plan("SELECT min(next_attempt_at) FROM deliveries WHERE state = 'pending' AND target = 't'")).toMatch(
      /USING (COVERING )?INDEX deliveries_due/,
    );
    // The sweep for orphans probes deliveries_due once per target: no pass over the pending rows
    // (deliveries_by_state, then a row read each), whatever the backlog.
    const pending = plan(pendingTargetsSql('INDEXED BY deliveries_due'));
    expect(pending).toContain('SEARCH deliveries USING COVERING INDEX deliveries_due (target>?)');
    expect(pending).not.toMatch(/deliveries_by_state|SCAN deliveries|TEMP B-TREE/);
    // The scrape's count: the last id off the end of the primary key, each slice's end and its rows by rowid,
    // never a pass over every row in one statement.
    expect(plan(LAST_DELIVERY_ID_SQL)).toBe('SEARCH deliveries');
    expect(plan(SLICE_END_SQL.replaceAll('?', '0'))).toContain('SEARCH deliveries USING INTEGER PRIMARY KEY (rowid>?)');
    expect(plan(SLICE_END_SQL.replaceAll('?', '0'))).not.toMatch(/SCAN deliveries|TEMP B-TREE/);
    expect(plan(COUNT_SLICE_SQL.replaceAll('?', '0'))).toContain(
      'SEARCH deliveries USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)',
    );
  });

  it('counts deliveries by target and state a slice at a time, as the one statement would', async () => {
    const { path } = await journal();
    const store = await migrated(path);
    // 12,000 deliveries: three slices of COUNT_SLICE_ROWS, a gap where a prune removed some, and one far after.
    await store.ingest(Array.from({ length: 6000 }, () => makeIngestItem({ targets: ['mail', 'slack'] })));
    const db = connect(path);
    db.exec(`UPDATE deliveries SET state = 'dead' WHERE id % 7 = 0`);
    db.exec(`UPDATE deliveries SET state = 'delivered' WHERE id % 3 = 0 AND state = 'pending'`);
    db.exec(`DELETE FROM deliveries WHERE id BETWEEN 4000 AND 6500`);
    // Ids left far apart, as by a pending delivery that outlived a long-pruned stretch of the journal.
    db.exec(`INSERT INTO deliveries (id, event_id, target, state, next_attempt_at, created_at, updated_at)
      SELECT 50000000, event_id, 'tickets', 'pending', 0, 0, 0 FROM deliveries LIMIT 1`);
    const oneStatement = db
      .prepare('SELECT target, state, count(*) AS count FROM deliveries GROUP BY target, state ORDER BY target, state')
      .all();
    expect(oneStatement).toHaveLength(7);

    // A callback scheduled once the count began runs before it ends: the event loop ran between the slices.
    const scheduledAfter = await new Promise<[number, unknown]>((resolve) => {
      let ran = 0;
      const counting = store.countByTarget();
      setImmediate(() => (ran = 1));
      void counting.then((counted) => resolve([ran, counted]));
    });
    expect(scheduledAfter).toEqual([1, oneStatement]);
  });
});
describeRetentionStoreContract('SQLite', () => tempSqliteJournal());
describeHeldRetentionStoreContract('SQLite', () => tempSqliteJournal());
