import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runMigrate } from '../../src/cli/migrate-command.js';
import { postgresMigrations } from '../../src/store/postgres/migrations/postgres-migrations.js';
import { sqliteMigrations } from '../../src/store/sqlite/migrations/sqlite-migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { lockSqliteJournal } from '../../src/store/sqlite/lock-sqlite-journal.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl, type TempPostgresJournal } from '../store/temp-postgres-journal.js';

const tempDir = useTempDirs();
// The latest schema version each journal knows (the number of its migrations).
const SQLITE_LATEST = sqliteMigrations.length;
const POSTGRES_LATEST = postgresMigrations.length;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A daemon config in a fresh folder; the source secret is left unset on purpose: migrate does not need it. */
function writeConfig(store: string): string {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'switchyard.yaml'),
    `store: ${store}\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\n`,
  );
  return dir;
}

async function migrate(dir: string, env: Record<string, string> = {}, args: string[] = []) {
  const io = fakeCliIo(dir, env);
  const code = await runMigrate(['--config', 'switchyard.yaml', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('switchyard migrate on SQLite', () => {
  it('creates and migrates the journal, then finds it current', async () => {
    const dir = writeConfig('{ sqlite: { path: ./data/journal.db } }');
    expect(await migrate(dir)).toEqual({
      code: 0,
      out: `journal ${path.join(dir, 'data', 'journal.db')}: schema version ${SQLITE_LATEST} (was 0)\n`,
      err: '',
    });
    expect((await migrate(dir)).out).toContain(`schema version ${SQLITE_LATEST} (already current)`);
    const store = createSqliteStore({ path: path.join(dir, 'data', 'journal.db') });
    cleanups.push(() => store.close());
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('beside a running daemon, reports a current journal and refuses one that needs migrations', async () => {
    const dir = writeConfig('{ sqlite: { path: ./journal.db } }');
    const journal = path.join(dir, 'journal.db');
    const daemon = lockSqliteJournal(journal, { pid: 4242, host: 'soc-1', startedAt: Date.now() });
    cleanups.push(async () => daemon.release());
    const refused = await migrate(dir);
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toContain(`journal_locked: the journal ${journal} is in use by another switchyard daemon`);
    expect(refused.err).toContain('(pid 4242 on host soc-1');
    // Nothing migrated: the journal the daemon's lock made has no table yet.
    const opened = new Database(journal, { readonly: true });
    expect(opened.prepare('SELECT count(*) AS n FROM sqlite_master').get()).toEqual({ n: 0 });
    opened.close();

    daemon.release();
    expect((await migrate(dir)).out).toContain(`schema version ${SQLITE_LATEST} (was 0)`);
    const again = lockSqliteJournal(journal, { pid: 4242, host: 'soc-1', startedAt: Date.now() });
    cleanups.push(async () => again.release());
    expect(await migrate(dir)).toEqual({
      code: 0,
      out: `journal ${journal}: schema version ${SQLITE_LATEST} (already current)\n`,
      err: '',
    });
  });

  it('refuses --from for now, saying why it is not needed', async () => {
    const dir = writeConfig('{ sqlite: { path: ./journal.db } }');
    const result = await migrate(dir, {}, ['--from', 'sqlite:./old.db']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--from is not offered');
    expect(result.err).toContain('drain it instead');
  });

  it('is a command of the real CLI', async () => {
    const dir = writeConfig('{ sqlite: { path: ./journal.db } }');
    const cli = spawnCli(['migrate', '--config', path.join(dir, 'switchyard.yaml')], {});
    expect({ code: await cli.exited, err: cli.stderr() }).toEqual({ code: 0, err: '' });
    expect(cli.stdout()).toContain(`schema version ${SQLITE_LATEST} (was 0)`);
  });
});

describe('switchyard migrate when PostgreSQL cannot be reached', () => {
  it('exits 1 with journal_unavailable, naming no password', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const dir = writeConfig('{ postgres: { url: "${DATABASE_URL}" } }');
    const result = await migrate(dir, { DATABASE_URL: `postgres://switchyard:pw-s3cret@127.0.0.1:${port}/x` });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^switchyard migrate: journal_unavailable: .*ECONNREFUSED/);
    expect(result.err).not.toContain('pw-s3cret');
  });
});

describePostgres('switchyard migrate on PostgreSQL', () => {
  async function journal(): Promise<TempPostgresJournal> {
    const created = await tempPostgresJournal();
    cleanups.push(() => created.dispose());
    return created;
  }
  const ALL_VERSIONS = postgresMigrations.map((migration) => ({ version: migration.version }));
  const versions = (on: TempPostgresJournal) =>
    on.sql<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  const host = new URL(testDatabaseUrl).host;

  it('migrates a fresh schema, then finds it current', async () => {
    const on = await journal();
    const dir = writeConfig(`{ postgres: { url: "\${DATABASE_URL}", schema: ${on.schema} } }`);
    const env = { DATABASE_URL: testDatabaseUrl };
    const where = `journal postgres://${host}${new URL(testDatabaseUrl).pathname} (schema ${on.schema})`;

    expect(await migrate(dir, env)).toEqual({
      code: 0,
      out: `${where}: schema version ${POSTGRES_LATEST} (was 0)\n`,
      err: '',
    });
    expect(await migrate(dir, env)).toEqual({
      code: 0,
      out: `${where}: schema version ${POSTGRES_LATEST} (already current)\n`,
      err: '',
    });
    expect(await versions(on)).toEqual(ALL_VERSIONS);
    const store = on.openWith({});
    cleanups.push(() => store.close());
    expect(await store.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('creates a schema that does not exist yet, and applies each migration once when run side by side', async () => {
    const on = await journal();
    await on.sql(`DROP SCHEMA ${on.schema}`);
    const dir = writeConfig(`{ postgres: { url: "${testDatabaseUrl}", schema: ${on.schema} } }`);

    const results = await Promise.all([migrate(dir), migrate(dir), migrate(dir)]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(await versions(on)).toEqual(ALL_VERSIONS);
  });
});
