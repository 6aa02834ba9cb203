import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-sqlite-database.js';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import type { Store } from '../../src/store/store.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { describePostgres } from '../store/describe-postgres.js';
import { DAY_MS, makeIngestItem } from '../store/make-ingest-item.js';
import { finishDeliveries } from '../store/retention-store-contract.js';
import { silence } from '../store/silence-store-contract.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';

const tempDir = useTempDirs();
const SOURCES = 'sources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\ndedupe_window: 7d\n';

/**
 * Old events of every kind, relative to now: 4 delivered 40 days ago, 2 whose dead letters died 100 days ago
 * (all 6 go), 1 dead 50 days ago (a dead letter kept for 90), 2 pending since 40 days ago (never removed),
 * 1 delivered yesterday.
 */
async function seed(store: Store): Promise<void> {
  const now = Date.now();
  const at = (daysAgo: number, count: number, target: string) =>
    store.ingest(
      Array.from({ length: count }, (_, i) =>
        makeIngestItem({ receivedAt: now - daysAgo * DAY_MS + i, targets: [target] }),
      ),
    );
  await at(101, 2, 'tickets');
  await finishDeliveries(store, 'tickets', 'dead', now - 100 * DAY_MS);
  await at(51, 1, 'tickets');
  await finishDeliveries(store, 'tickets', 'dead', now - 50 * DAY_MS);
  await at(41, 4, 'slack');
  await finishDeliveries(store, 'slack', 'delivered', now - 40 * DAY_MS);
  await at(41, 2, 'mail');
  await at(1, 1, 'slack');
  await finishDeliveries(store, 'slack', 'delivered', now - DAY_MS / 2);
}

async function states(store: Store): Promise<Record<string, number>> {
  const rows = await store.countByTarget();
  return Object.fromEntries(rows.map((r) => [`${r.target}/${r.state}`, r.count]));
}

async function run(args: string[]) {
  const cli = spawnCli(['prune', ...args], { MONITOR_SECRET: 'unused-here-0123456789' });
  const code = await cli.exited;
  return { code, out: cli.stdout(), err: cli.stderr() };
}

describe('switchyard prune on SQLite (real processes)', { timeout: 60_000 }, () => {
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  /** A journal written by an earlier Switchyard (auto_vacuum NONE), seeded, with its config file. */
  async function journal() {
    const dir = tempDir();
    const dbPath = path.join(dir, 'journal.db');
    const db = openSqliteDatabase(dbPath, 1000);
    runSqliteMigrations(db, sqliteMigrations, Date.now());
    db.close();
    const config = path.join(dir, 'switchyard.yaml');
    writeFileSync(config, `store: { sqlite: { path: ./journal.db } }\n${SOURCES}`);
    const store = createSqliteStore({ path: dbPath });
    stores.push(store);
    await seed(store);
    return { config, dbPath, store };
  }

  it('--dry-run says what would go and changes nothing', async () => {
    const { config, store } = await journal();
    const before = await states(store);
    const result = await run(['--config', config, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('events kept 30d (retention.events 30d, dedupe_window 7d), dead letters 90d');
    expect(result.out).toContain('would remove 6 events, 6 deliveries (2 dead letters), 6 attempts\n');
    expect(await store.counts()).toEqual({ events: 10, deliveries: 10 });
    expect(await states(store)).toEqual(before);
  });

  it('--dry-run and the prune leave held events that noise control may still send; muted ones go', async () => {
    const { config, store } = await journal();
    const old = Date.now() - 40 * DAY_MS;
    const item = (i: number, target: string) => makeIngestItem({ receivedAt: old + 100 + i, targets: [target] });
    await store.createSilence({ ...silence({ id: 'sil_env', onExpiry: 'deliver_unresolved' }), endsAt: old + DAY_MS });
    const group = { route: 'storm', key: 'storm|', waitMs: 80_000, intervalMs: 0, maxEvents: 10 };
    const throttle = { by: 'target:pager', key: 'target:pager|', windowMs: 60_000, max: 1 };
    await store.ingest([
      { ...item(1, 'pager'), holds: [{ state: 'silenced', by: 'sil_env' }] },
      { ...item(2, 'pager'), groups: [group] },
      { ...item(3, 'pager'), throttles: [throttle] }, // let through: pending
      { ...item(4, 'pager'), throttles: [throttle] }, // suppressed, reported by no later message yet
      { ...item(5, 'pager'), holds: [{ state: 'muted', by: 'maintenance' }] },
    ]);
    const result = await run(['--config', config, '--dry-run']);
    expect(result.out).toContain('would remove 7 events, 7 deliveries (2 dead letters), 6 attempts\n');
    expect((await run(['--config', config])).out).toContain('removed 7 events, 7 deliveries');
    expect(await states(store)).toMatchObject({ 'pager/silenced': 1, 'pager/grouped': 1, 'pager/suppressed': 1 });
    expect(await states(store)).not.toHaveProperty('pager/muted');
  });

  it('--dry-run prints durations under a day as configured', async () => {
    const { config } = await journal();
    const configured = readFileSync(config, 'utf8').replace('dedupe_window: 7d', 'dedupe_window: 1s');
    writeFileSync(config, `${configured}retention: { events: 3s, dead: 90s }\n`);
    const result = await run(['--config', config, '--dry-run']);
    expect(result.err).toBe('');
    expect(result.out).toContain('events kept 3s (retention.events 3s, dedupe_window 1s), dead letters 1m30s');
  });

  it('prunes now: finished old events go, pending and recent dead letters stay; --vacuum gives the space back', async () => {
    const { config, dbPath, store } = await journal();
    const result = await run(['--config', config, '--vacuum']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/removed 6 events, 6 deliveries \(2 dead letters\), 6 attempts in 1 batches/);
    expect(result.out).toMatch(/vacuum: converted to auto_vacuum=INCREMENTAL; \d+ -> \d+ bytes/);
    expect(await store.counts()).toEqual({ events: 4, deliveries: 4 });
    expect(await states(store)).toEqual({ 'mail/pending': 2, 'tickets/dead': 1, 'slack/delivered': 1 });
    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    db.close();

    // Again: nothing left to remove.
    expect((await run(['--config', config])).out).toContain('removed 0 events');
  });

  it('refuses --vacuum with --dry-run, and a missing journal, changing nothing', async () => {
    const { config, store } = await journal();
    const both = await run(['--config', config, '--dry-run', '--vacuum']);
    expect(both).toMatchObject({ code: 2, out: '' });
    expect(both.err).toContain('--vacuum changes the journal; not with --dry-run');
    expect(await store.counts()).toEqual({ events: 10, deliveries: 10 });

    const dir = tempDir();
    const missing = path.join(dir, 'switchyard.yaml');
    writeFileSync(missing, `store: { sqlite: { path: ./none.db } }\n${SOURCES}`);
    const result = await run(['--config', missing]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('journal_missing');
  });
});

describePostgres('switchyard prune on PostgreSQL (real processes)', () => {
  it('prunes the shared journal, never a pending delivery, and refuses --vacuum', async () => {
    const journal = await tempPostgresJournal();
    const store = journal.openWith({});
    try {
      await store.migrate();
      await seed(store);
      const config = path.join(tempDir(), 'switchyard.yaml');
      writeFileSync(
        config,
        `store: { postgres: { url: "${testDatabaseUrl}", schema: ${journal.schema} } }\n${SOURCES}`,
      );

      const vacuum = await run(['--config', config, '--vacuum']);
      expect(vacuum.code).toBe(2);
      expect(vacuum.err).toContain('--vacuum is for SQLite');
      expect((await run(['--config', config, '--dry-run'])).out).toContain('would remove 6 events');
      expect(await store.counts()).toEqual({ events: 10, deliveries: 10 });

      const result = await run(['--config', config]);
      expect(result.code).toBe(0);
      expect(result.out).toContain('removed 6 events, 6 deliveries (2 dead letters), 6 attempts');
      expect(await states(store)).toEqual({ 'mail/pending': 2, 'tickets/dead': 1, 'slack/delivered': 1 });
    } finally {
      await store.close();
      await journal.dispose();
    }
  }, 60_000);
});
