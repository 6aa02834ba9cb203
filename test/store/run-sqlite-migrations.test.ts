import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSqliteMigrations } from '../../src/store/sqlite/run-sqlite-migrations.js';
import type { SqliteMigration } from '../../src/store/sqlite/sqlite-migration.js';

const one: SqliteMigration = { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER);' };
const two: SqliteMigration = { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (1);' };
const brokenTwo: SqliteMigration = {
  version: 2,
  name: 'broken',
  sql: 'CREATE TABLE b (y INTEGER); SELECT nope FROM nowhere;',
};

describe('runSqliteMigrations', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-migrations-'));
    db = new Database(join(dir, 'journal.db'));
  });
  afterEach(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });
  const tables = () =>
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  const applied = () => db.prepare('SELECT version, name, applied_at AS appliedAt FROM schema_migrations').all();

  it('applies migrations in order and records each with the time it was applied', () => {
    runSqliteMigrations(db, [one, two], 1234);
    expect(tables()).toEqual(['a', 'b', 'schema_migrations']);
    expect(applied()).toEqual([
      { version: 1, name: 'one', appliedAt: 1234 },
      { version: 2, name: 'two', appliedAt: 1234 },
    ]);
  });

  it('is a no-op when the schema is current, and applies only what is new', () => {
    runSqliteMigrations(db, [one], 1);
    runSqliteMigrations(db, [one], 2);
    runSqliteMigrations(db, [one, two], 3);
    runSqliteMigrations(db, [one, two], 4);
    expect(applied()).toEqual([
      { version: 1, name: 'one', appliedAt: 1 },
      { version: 2, name: 'two', appliedAt: 3 },
    ]);
    expect(db.prepare('SELECT count(*) FROM a').pluck().get()).toBe(1);
  });

  it('rolls back a failing migration entirely and keeps the ones before it', () => {
    expect(() => runSqliteMigrations(db, [one, brokenTwo], 1)).toThrow(/no such/);
    expect(tables()).toEqual(['a', 'schema_migrations']);
    expect(applied()).toEqual([{ version: 1, name: 'one', appliedAt: 1 }]);
    expect(db.inTransaction).toBe(false);
    runSqliteMigrations(db, [one, two], 2);
    expect(tables()).toEqual(['a', 'b', 'schema_migrations']);
  });

  it('refuses a journal migrated by newer code, without touching it', () => {
    runSqliteMigrations(db, [one, two], 1);
    expect(() => runSqliteMigrations(db, [one], 2)).toThrow(
      expect.objectContaining({ code: 'journal_schema_too_new', message: expect.stringMatching(/version 2.*up to 1/) }),
    );
    expect(applied()).toHaveLength(2);
  });

  it('refuses a list of migrations that is not numbered 1, 2, 3, ...', () => {
    expect(() => runSqliteMigrations(db, [two], 1)).toThrow(/numbered/);
    expect(() => runSqliteMigrations(db, [one, one], 1)).toThrow(/numbered/);
    expect(tables()).toEqual([]);
  });
});
